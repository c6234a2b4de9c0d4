import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { startCuttingProxy } from './cutting-proxy';

describe('privacy-desk users anonymize / delete (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(37);
  });
  afterAll(() => f.close());

  it('refuses a mismatching --confirm with exit 2, says nothing was sent, and leaves the user untouched', async () => {
    const before = f.sandbox.stats().apiRequests;
    const { code, stderr, stdout } = await f.cli(['users', 'anonymize', 'alice@example.org', '--confirm', 'alice@example.com']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^CONFIRMATION_MISMATCH: The uid you typed does not match .*nothing was sent.*\nOutcome: not sent — nothing reached the service\.\n$/);
    expect(stdout).toBe('');
    expect(f.sandbox.stats().apiRequests).toBe(before);
    expect((await f.sandboxUser('alice@example.org')).body?.state).toBe('active');
    expect(f.auditLines()).toEqual([]);
  });

  it('refuses a missing --confirm as a usage error (exit 2), on stderr only even with --json', async () => {
    const { code, stderr, stdout } = await f.cli(['users', 'delete', 'alice@example.org', '--json']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/required option '--confirm <uid>'/);
    expect(stdout).toBe('');
    expect((await f.sandboxUser('alice@example.org')).body?.state).toBe('active');
  });

  it('anonymises an awkward uid when --confirm repeats it, and audits before and after', async () => {
    const uid = 'mixed /?#% ü+';
    const { code, stdout, stderr } = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--reference', 'GDPR-42', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ action: 'anonymize', uid, status: 200 });
    expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');
    const entries = f.auditLines().filter((e) => e.uid === uid);
    // Logged out first (the default), anonymised, then verified: one act.
    expect(entries.map((e) => `${String(e.action)} ${String(e.outcome)}`)).toEqual(['logout attempted', 'logout done', 'anonymize attempted', 'anonymize done', 'anonymize attempted', 'anonymize verification']);
    expect(entries[3]).toMatchObject({ action: 'anonymize', via: 'cli', reference: 'GDPR-42', status: 200, baseUrl: f.sandbox.url });
    expect(typeof entries[3]!.requestId).toBe('string');
  });

  it('deletes a user and says so in words', async () => {
    const { code, stdout } = await f.cli(['users', 'delete', 'team/lead', '--confirm', 'team/lead']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Ended the user’s sessions first \(logout accepted, status 200\)\.\nDeleted user “team\/lead” in .* \(status 200, request id [^)]+\)\.\nVerified: the old uid no longer resolves \(repeating the delete answered 404\)\.\n$/,
    );
    expect((await f.sandboxUser('team/lead')).body?.state).toBe('deleted');
  });

  it('an unknown uid exits 1 with the NOT_FOUND prefix, says the service refused, and audits the failure', async () => {
    const { code, stderr } = await f.cli(['users', 'delete', 'no-such-user', '--confirm', 'no-such-user']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^NOT_FOUND: No user with uid “no-such-user” exists.*\nOutcome: refused by the service — nothing was changed\.\n$/);
    const entries = f.auditLines().filter((e) => e.uid === 'no-such-user');
    // The logout sent first is answered alike whether or not the uid exists (the service does not reveal who exists).
    expect(entries.map((e) => `${String(e.action)} ${String(e.outcome)}`)).toEqual(['logout attempted', 'logout done', 'delete attempted', 'delete refused']);
    expect(entries[3]).toMatchObject({ errorCode: 'NOT_FOUND', status: 404 });
  });

  it('with --json, a failure prints the error with its outcome on stdout as the only JSON document', async () => {
    const refused = await f.cli(['users', 'anonymize', 'no-such-user', '--confirm', 'no-such-user', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ error: { code: 'NOT_FOUND', outcome: 'refused', status: 404 } });
    expect(refused.stderr).toMatch(/^NOT_FOUND: /);

    const notSent = await f.cli(['users', 'delete', 'alice@example.org', '--confirm', 'bob', '--json']);
    expect(notSent.code).toBe(2);
    expect(JSON.parse(notSent.stdout)).toEqual({ error: { code: 'CONFIRMATION_MISMATCH', outcome: 'not-sent', message: expect.stringMatching(/nothing was sent/), text: { id: 'gate.uidMismatch', params: { verb: { id: 'action.verb.delete' } } } } });
  });

  it('a second anonymise of the same (now erased) uid is NOT_FOUND', async () => {
    const uid = 'hash#tag';
    expect((await f.cli(['users', 'anonymize', uid, '--confirm', uid])).code).toBe(0);
    const again = await f.cli(['users', 'anonymize', uid, '--confirm', uid]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^NOT_FOUND: /);
  });

  it('a connection cut after the delete was sent exits 3: outcome UNKNOWN, and indeed the service did it', async () => {
    const uid = 'bob+news@example.org';
    const proxy = await startCuttingProxy(f.sandbox.url, (request) => request.method === 'DELETE');
    try {
      const { code, stdout, stderr } = await f.cli(['users', 'delete', uid, '--confirm', uid, '--base-url', proxy.url, '--app', f.sandbox.credentials.applicationName, '--json'], { connection: false });
      expect(code).toBe(3);
      expect(stderr).toMatch(/^NETWORK: .*\nOutcome: UNKNOWN — the request may have reached the service and taken effect\. Check the user before repeating an erasure; a logout can safely be sent again\.\n$/);
      expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'NETWORK', outcome: 'unknown' } });
    } finally {
      await proxy.close();
    }
    expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
  });
});
