import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk users anonymize / delete (real CLI against the sandbox)', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(37);
  });
  afterAll(() => f.close());

  it('refuses a mismatching --confirm with exit 2, sends nothing and leaves the user untouched', async () => {
    const before = f.sandbox.stats().apiRequests;
    const { code, stderr, stdout } = await f.cli(['users', 'anonymize', 'alice@example.org', '--confirm', 'alice@example.com']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^CONFIRMATION_MISMATCH: The uid you typed does not match .*nothing was sent/);
    expect(stdout).toBe('');
    expect(f.sandbox.stats().apiRequests).toBe(before);
    expect((await f.sandboxUser('alice@example.org')).body?.state).toBe('active');
    expect(f.auditLines()).toEqual([]);
  });

  it('refuses a missing --confirm as a usage error (exit 2)', async () => {
    const { code, stderr } = await f.cli(['users', 'delete', 'alice@example.org']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/required option '--confirm <uid>'/);
    expect((await f.sandboxUser('alice@example.org')).body?.state).toBe('active');
  });

  it('anonymises an awkward uid when --confirm repeats it, and audits before and after', async () => {
    const uid = 'mixed /?#% ü+';
    const { code, stdout } = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--reference', 'GDPR-42', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ action: 'anonymize', uid, status: 200 });
    expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');
    const entries = f.auditLines().filter((e) => e.uid === uid);
    expect(entries.map((e) => e.outcome)).toEqual(['attempted', 'succeeded']);
    expect(entries[1]).toMatchObject({ action: 'anonymize', via: 'cli', reference: 'GDPR-42', status: 200, baseUrl: f.sandbox.url });
    expect(typeof entries[1]!.requestId).toBe('string');
  });

  it('deletes a user and says so in words', async () => {
    const { code, stdout } = await f.cli(['users', 'delete', 'team/lead', '--confirm', 'team/lead']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Deleted user “team\/lead” in .* \(status 200, request id [^)]+\)\.\n$/);
    expect((await f.sandboxUser('team/lead')).body?.state).toBe('deleted');
  });

  it('an unknown uid exits 1 with the NOT_FOUND prefix and a failed audit entry', async () => {
    const { code, stderr } = await f.cli(['users', 'delete', 'no-such-user', '--confirm', 'no-such-user']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^NOT_FOUND: No user with uid “no-such-user” exists/);
    const entries = f.auditLines().filter((e) => e.uid === 'no-such-user');
    expect(entries.map((e) => e.outcome)).toEqual(['attempted', 'failed']);
    expect(entries[1]).toMatchObject({ errorCode: 'NOT_FOUND', status: 404 });
  });

  it('a second anonymise of the same (now erased) uid is NOT_FOUND', async () => {
    const uid = 'hash#tag';
    expect((await f.cli(['users', 'anonymize', uid, '--confirm', uid])).code).toBe(0);
    const again = await f.cli(['users', 'anonymize', uid, '--confirm', uid]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^NOT_FOUND: /);
  });
});
