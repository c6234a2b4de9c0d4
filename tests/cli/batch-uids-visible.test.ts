import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { runBatchCli, sandboxUids, uidFile } from './batch-harness';

/**
 * uids as the CLI prints them: one with spaces at an end (" user-000490 ") is never shown as if it were
 * "user-000490"; --check says when the trimmed form is on the service, and --use-trimmed chooses it.
 */
describe('privacy-desk batch and tables: uids drawn visibly', () => {
  let f: CliFixture;
  let plain: string[];

  beforeAll(async () => {
    f = await startCliFixture(40);
    plain = (await sandboxUids(f)).filter((uid) => /^[\w.@-]+$/.test(uid));
  });
  afterAll(() => f.close());

  it('--check calls a pasted uid whose trimmed form exists a likely mistake and names --use-trimmed; the missing list shows its spaces', async () => {
    const [a, b] = plain.slice(0, 2);
    const before = f.sandbox.stats().apiRequests;
    const { code, stdout } = await f.cli(['batch', 'delete', uidFile([a!, ` ${b} `]), '--check', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain(`  Not found (each will end as "not found": already erased, or never existed):\n    “ ${b} ”\n`);
    expect(stdout).toContain('  Likely mistake: 1 uid begins or ends with spaces or invisible characters and is not on the service, but the same uid without them is:\n');
    expect(stdout).toContain(`    line 2: “ ${b} ” → “${b}”\n`);
    expect(stdout).toContain('To send the trimmed uids instead, add --use-trimmed');
    // Only the users list was read.
    expect(f.sandbox.stats().apiRequests - before).toBeGreaterThan(0);
    expect((await f.sandboxUser(b!)).body?.state).toBe('active');
  });

  it('--use-trimmed without --check is refused before anything is sent', async () => {
    const [, , c] = plain;
    const before = f.sandbox.stats().apiRequests;
    const { code, stderr } = await f.cli(['batch', 'delete', uidFile([` ${c}`]), '--use-trimmed', '--yes', 'DELETE 1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: --use-trimmed needs --check: .* Nothing was sent\.$/m);
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('--check --use-trimmed sends the trimmed uid, and the audit trail records the uid as pasted', async () => {
    const [, , , d, e] = plain;
    const { code, stdout } = await runBatchCli(f, ['batch', 'anonymise', uidFile([d!, `${e}  `]), '--check', '--use-trimmed', '--yes', 'ANONYMISE 2', '--no-logout-first']);
    expect(code).toBe(0);
    expect(stdout).toContain('--use-trimmed: the trimmed uids are sent; the job and the audit trail record each uid as pasted');
    expect((await f.sandboxUser(e!)).body?.state).toBe('anonymized');
    const ofE = f.auditLines().filter((line) => line.uid === e && line.via === 'batch');
    expect(ofE.map((line) => line.outcome)).toEqual(['attempted', 'done']);
    expect(ofE.every((line) => line.pastedUid === `${e}  `)).toBe(true);
  });

  it('tables quote a uid whose spaces would not show; --json keeps it exact', async () => {
    const { code, stdout } = await f.cli(['users', 'list', '--per-page', '20']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^"jean dupont" /m);
    const json = await f.cli(['users', 'list', '--per-page', '20', '--json']);
    expect((JSON.parse(json.stdout) as { users: Array<{ uid: string }> }).users.map((user) => user.uid)).toContain('jean dupont');
  });
});
