import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { startCuttingProxy } from './cutting-proxy';

describe('privacy-desk users anonymize / delete: log out first, then verify (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(37);
  });
  afterAll(() => f.close());

  it('ends the sessions, anonymises and verifies by default; --json carries each step', async () => {
    const uid = 'alice@example.org';
    await f.login(uid);
    expect((await f.sandboxUser(uid)).body?.sessionCount).toBeGreaterThan(0);
    const { code, stdout, stderr } = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--reference', 'DSR-7', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toMatchObject({ action: 'anonymize', uid, outcome: 'done', logout: { outcome: 'done', status: 200 }, verification: 'verified', verificationStatus: 404 });
    expect((await f.sandboxUser(uid)).body).toMatchObject({ state: 'anonymized', sessionCount: 0 });
    const entries = f.auditLines().filter((e) => e.uid === uid);
    expect(new Set(entries.map((e) => e.actId)).size).toBe(1);
    expect(entries.at(-1)).toMatchObject({ action: 'anonymize', outcome: 'verification', verification: 'verified', status: 404, reference: 'DSR-7' });
  });

  it('--no-logout-first sends no logout: the sessions outlive the anonymisation', async () => {
    const uid = 'bob+news@example.org';
    await f.login(uid);
    const sessions = (await f.sandboxUser(uid)).body?.sessionCount;
    expect(sessions).toBeGreaterThan(0);
    const { code, stdout } = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--no-logout-first']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Anonymised user “bob\+news@example\.org” in .*\nVerified: the old uid no longer resolves \(repeating the anonymise answered 404\)\.\n$/);
    expect((await f.sandboxUser(uid)).body).toMatchObject({ state: 'anonymized', sessionCount: sessions });
    expect(f.auditLines().filter((e) => e.uid === uid && e.action === 'logout')).toEqual([]);
  });

  it('a logout whose answer is lost is a warning on stderr; the confirmed erasure goes ahead and exits 0', async () => {
    const uid = 'team/lead';
    const proxy = await startCuttingProxy(f.sandbox.url, (request) => (request.url ?? '').startsWith('/auth/logout/'));
    try {
      const { code, stdout, stderr } = await f.cli(['users', 'delete', uid, '--confirm', uid, '--base-url', proxy.url, '--app', f.sandbox.credentials.applicationName], { connection: false });
      expect(code).toBe(0);
      expect(stderr).toMatch(/^Warning: the logout sent first was of unknown outcome \(NETWORK\); the deletion went ahead as confirmed\./);
      expect(stdout).toMatch(/^Deleted user “team\/lead” in .*\nVerified: the old uid no longer resolves/);
    } finally {
      await proxy.close();
    }
    expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
    const entries = f.auditLines().filter((e) => e.uid === uid);
    expect(entries.map((e) => `${String(e.action)} ${String(e.outcome)}`)).toEqual(['logout attempted', 'logout unknown', 'delete attempted', 'delete done', 'delete attempted', 'delete verification']);
  });
});
