import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { inspectUid } from '../../sandbox/test-support';
import { startCliFixture, type CliFixture } from '../cli/cli-harness';
import { pdfText } from '../support/pdf-text';
import { useSandbox } from './helpers';

/**
 * Some services answer 200 and put their real status in the body. A 2xx whose body says failure is not a
 * success: the act may or may not have happened, so its outcome is unknown — for a single act, a logout and
 * every item of a batch — and nothing (exit code, audit entry, receipt) says the service confirmed it.
 * The sandbox's variants answer exactly these bodies (docs/SERVICE-API.md#sandbox-variants).
 */

async function createUser(url: string, uid: string): Promise<void> {
  const response = await fetch(`${url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
  expect(response.status).toBe(201);
}

describe('the CLI meets error-shaped 200s', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(3);
  });
  afterAll(async () => f?.close());
  afterEach(async () => f.sandbox.reset());

  it('a delete answered 200 {"error":"User not found","status":404}: outcome unknown, exit 3, audited unknown, the receipt does not say confirmed', async () => {
    f.sandbox.setVariants({ notFoundBody: 'error-200' });
    const run = await f.cli(['users', 'delete', 'forged-user', '--confirm', 'forged-user', '--reference', 'REQ-1', '--no-logout-first']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^UNEXPECTED_RESPONSE: The service answered 200 while deleting user “forged-user”, but its answer says it failed \(an "error" member\)\. The outcome is UNKNOWN.* The service said: “User not found”\./m);
    expect(run.stderr).toMatch(/^Outcome: UNKNOWN/m);
    const outcomes = f.auditLines().filter((e) => e.uid === 'forged-user').map((e) => `${String(e.outcome)}:${String(e.errorCode ?? '')}`);
    expect(outcomes).toEqual(['attempted:', 'unknown:UNEXPECTED_RESPONSE']);

    const receiptRun = await f.cli(['audit', 'receipt', '--reference', 'REQ-1', '--output', join(f.dataDir, 'r.pdf')], { connection: false });
    expect(receiptRun.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    const text = (await pdfText(readFileSync(join(f.dataDir, 'r.pdf')))).text;
    expect(text).toContain('Outcome unknown');
    expect(text).not.toContain('the service confirmed it');
  });

  it('an anonymise answered 200 {"success":false}: outcome unknown, exit 3, and the user was indeed left as it was', async () => {
    await createUser(f.sandbox.url, 'half-failed');
    f.sandbox.setVariants({ erasureResponse: 'success-false' });
    const run = await f.cli(['users', 'anonymize', 'half-failed', '--confirm', 'half-failed', '--no-logout-first']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/but its answer says it failed \("success": false\)\. The outcome is UNKNOWN/);
    expect((await f.sandboxUser('half-failed')).body?.state).toBe('active');
  });

  it('a logout answered 200 {"success":false}: outcome unknown (exit 3), audited unknown, and the sessions did not end', async () => {
    await createUser(f.sandbox.url, 'still-logged-in');
    await f.login('still-logged-in');
    f.sandbox.setVariants({ logoutSuccessBody: 'success-false' });
    const run = await f.cli(['logout', 'still-logged-in', '--json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'unknown', errorCode: 'UNEXPECTED_RESPONSE', status: 200 });
    expect(run.stderr).toMatch(/answer says it failed \("success": false\), so whether the user[’']s sessions ended is UNKNOWN/);
    expect(f.auditLines().filter((e) => e.uid === 'still-logged-in').map((e) => e.outcome)).toEqual(['attempted', 'unknown']);
    expect((await f.sandboxUser('still-logged-in')).body?.sessionCount).toBe(1);
  });

  it('a broken token refused with 200 and an error body: the logout is unknown — neither "refused as expected" nor "accepted"', async () => {
    await createUser(f.sandbox.url, 'token-refused-200');
    f.sandbox.setVariants({ logoutErrorStatus: 200 });
    const run = await f.cli(['logout', 'token-refused-200', '--negative', 'wrong-secret', '--json']);
    expect(run.code).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'unknown', status: 200 });
  });
});

describe('a batch meets error-shaped 200s', () => {
  const sandbox = useSandbox({ users: 10 });
  let dataDir: string;
  let desk: Desk;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-shaped-'));
    // The run's own clock, moved by its waits: each item is tried for its 10 minutes without the test waiting them.
    let clock = Date.now();
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'tester', now: () => clock, batchSleep: async (ms) => void (clock += ms) });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('no item is done: each attempt is audited unknown, and the users are untouched', async () => {
    const uids = (await desk.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid ? [user.uid] : [])).slice(0, 3);
    sandbox.current.setVariants({ erasureResponse: 'error-200' });
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'pasted list' });
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 2, confirmation: 'DELETE 3' });
    const result = await run.finished;
    expect(result.counts.done + result.counts.doneBeforeInterruption).toBe(0);
    const reading = await desk.readAudit();
    const answered = reading.entries.filter((e) => e.jobId === run.batchId && e.action === 'delete' && e.outcome !== 'attempted');
    expect(answered.length).toBeGreaterThanOrEqual(3);
    expect(new Set(answered.map((e) => `${e.outcome}:${e.errorCode ?? ''}`))).toEqual(new Set(['unknown:UNEXPECTED_RESPONSE']));
    for (const uid of uids) expect((await inspectUid(sandbox.current, uid)).body).toMatchObject({ state: 'active' });
  });
});
