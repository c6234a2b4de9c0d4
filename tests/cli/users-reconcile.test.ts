import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxUids, uidFile } from './batch-harness';
import { startCliFixture, type CliFixture } from './cli-harness';

interface ReconcileJson {
  reference: string;
  counts: { orphans: number; missing: number; inBoth: number; nearMatches: number; serviceUsers: number; withoutUid: number; applicationUids: number };
  orphans: string[];
  missing: string[];
  inBoth: string[];
  nearMatches: Array<{ service: string; application: string; differences: string[] }>;
}

/** Service uids seeded beside the sandbox's own awkward ones (spaces, slashes, %, CJK, NFC…). */
const SEEDED = [' padded ', 'Case.User', 'ren\u00e9', 'orphan/one', 'orphan%20two', '孤児ユーザー', 'tab  inside'];
/** Orphans expected: on the service, not in the application, with no near match there. */
const ORPHANS = ['orphan/one', 'orphan%20two', '孤児ユーザー', 'team/lead', '100%done'];

describe('privacy-desk users reconcile: the application’s uids against every user of the sandbox', () => {
  let f: CliFixture;
  let applicationList: string;
  beforeAll(async () => {
    f = await startCliFixture(40);
    for (const uid of SEEDED) {
      const created = await fetch(`${f.sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
      expect(created.status).toBe(201);
    }
    const onService = await sandboxUids(f);
    // The application: every service uid but the orphans, some written differently, and two it alone has.
    const rewritten: Record<string, string> = { ' padded ': 'padded', 'Case.User': 'case.user', 'ren\u00e9': 'rene\u0301', 'tab  inside': 'tab inside' };
    const application = onService.filter((uid) => !ORPHANS.includes(uid)).map((uid) => rewritten[uid] ?? uid);
    applicationList = uidFile(['uid', ...application, 'gone-from-service', ' gone-from-service']);
  });
  afterAll(() => f.close());

  it('--json: orphans, missing and near matches exactly; NFD equals NFC; spaces and capitals never make an orphan', async () => {
    const { code, stdout } = await f.cli(['users', 'reconcile', applicationList, '--separator', 'none', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as ReconcileJson;
    expect([...result.orphans].sort()).toEqual([...ORPHANS].sort());
    expect(result.missing.sort()).toEqual([' gone-from-service', 'gone-from-service']);
    expect(result.inBoth).toContain('ren\u00e9');
    expect(result.inBoth).toContain('jean dupont');
    expect(result.inBoth).toContain('東京ユーザー');
    expect(result.inBoth).toContain('mixed /?#% ü+');
    expect(result.nearMatches).toEqual(
      expect.arrayContaining([
        { service: ' padded ', application: 'padded', differences: ['edge-spaces'] },
        { service: 'Case.User', application: 'case.user', differences: ['case'] },
        { service: 'tab  inside', application: 'tab inside', differences: ['inner-spaces'] },
      ]),
    );
    expect(result.nearMatches).toHaveLength(3);
    expect(result.counts).toMatchObject({ orphans: 5, missing: 2, nearMatches: 3, serviceUsers: 47, withoutUid: 0 });
    expect(result.counts.inBoth).toBe(47 - 5 - 3);
    expect(result.reference).toMatch(/^reconcile-\d{8}-[0-9a-f]{6}$/);
  });

  it('reads a CSV with a column choice as a batch does', async () => {
    const csv = join(dirname(applicationList), 'app.csv');
    const rows = readFileSync(applicationList, 'utf8').split('\n').filter(Boolean).slice(1);
    writeFileSync(csv, `name;login\n${rows.map((uid, i) => `n${i};"${uid.replaceAll('"', '""')}"`).join('\n')}\n`);
    const { code, stdout } = await f.cli(['users', 'reconcile', csv, '--column', 'login', '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as ReconcileJson;
    expect([...result.orphans].sort()).toEqual([...ORPHANS].sort());
    expect(result.counts.nearMatches).toBe(3);
    // The text names the column the uids were read from (0-based, as --column takes it).
    const text = await f.cli(['users', 'reconcile', csv, '--column', 'login']);
    expect(text.stdout).toMatch(/^Reconciled \S*app\.csv \(\d+ distinct uids, from column “login” \(number 1\)\) with the users of /m);
  });

  it('text output names the sets and the rule; --orphans-to writes a list that batch anonymize erases, after which they are gone', async () => {
    const orphansFile = join(dirname(applicationList), 'orphans.txt');
    const { code, stdout } = await f.cli(['users', 'reconcile', applicationList, '--separator', 'none', '--orphans-to', orphansFile]);
    expect(code).toBe(0);
    expect(stdout).toContain('How uids are compared: exact, code point for code point after Unicode NFC (no trimming, no case folding)');
    expect(stdout).toContain('  orphans (on the service, not in the application: candidates for erasure): 5\n');
    expect(stdout).toContain('  " padded " ~ padded: spaces or invisible characters at an end\n');
    expect(stdout).toContain('5 orphans written to');
    const reference = /--reference (reconcile-\d{8}-[0-9a-f]{6})/.exec(stdout)?.[1];
    expect(reference).toBeDefined();
    expect(readFileSync(orphansFile, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['uid', ...ORPHANS].sort());

    const batch = await f.cli(['batch', 'anonymize', orphansFile, '--separator', 'none', '--reference', reference as string, '--yes', 'ANONYMISE 5', '--json']);
    expect(batch.code).toBe(0);
    for (const uid of ORPHANS) expect((await f.sandboxUser(uid)).body?.state).toBe('anonymized');
    expect((await f.sandboxUser(' padded ')).body?.state).toBe('active');

    const again = await f.cli(['users', 'reconcile', applicationList, '--separator', 'none', '--json']);
    const after = JSON.parse(again.stdout) as ReconcileJson;
    expect(after.orphans).toEqual([]);
    expect(after.counts.withoutUid).toBe(5);
  });

  it('warns when no uid of the list is on the service (most likely the wrong column or service), and only then', async () => {
    const names = uidFile(['Ada Lovelace', 'Grace Hopper']);
    const text = await f.cli(['users', 'reconcile', names, '--separator', 'none']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^WARNING: no uid of the list is on the service, so every user of the service is an orphan\. Check that the list holds the application’s uids/m);
    const json = await f.cli(['users', 'reconcile', names, '--separator', 'none', '--json']);
    expect((JSON.parse(json.stdout) as ReconcileJson).counts.inBoth).toBe(0);
    expect(json.stderr).toMatch(/^WARNING: no uid of the list is on the service/m);
    const usual = await f.cli(['users', 'reconcile', applicationList, '--separator', 'none']);
    expect(usual.stdout).not.toContain('WARNING');
  });

  it('an --orphans-to file that cannot be written is refused before the service is read (exit 2)', async () => {
    const before = ((await (await fetch(`${f.sandbox.url}/sandbox/stats`)).json()) as { apiRequests: number }).apiRequests;
    const { code, stderr } = await f.cli(['users', 'reconcile', applicationList, '--separator', 'none', '--orphans-to', join(dirname(applicationList), 'no-such-folder', 'orphans.txt')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: Cannot write the orphans to ".*no-such-folder.*" \(its folder does not exist\)\. Nothing was read from the service/m);
    const after = ((await (await fetch(`${f.sandbox.url}/sandbox/stats`)).json()) as { apiRequests: number }).apiRequests;
    expect(after).toBe(before);
  });

  it('refuses a list with no valid uid before reading the service', async () => {
    const empty = uidFile(['uid']);
    const { code, stderr } = await f.cli(['users', 'reconcile', empty]);
    expect(code).not.toBe(0);
    expect(stderr).toContain('No valid uid in');
  });
});

describe('privacy-desk users reconcile: what the service holds is shown, never obeyed', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
    for (const uid of ['evil\u202eexe.txt', 'bell\u0007here', 'Trap\u00a0User']) {
      const created = await fetch(`${f.sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
      expect(created.status).toBe(201);
    }
  });
  afterAll(() => f.close());

  it('prints orphans and near matches with their invisible and control characters escaped, in text and in JSON', async () => {
    const list = uidFile(['alice@example.org', 'trap user']);
    const text = await f.cli(['users', 'reconcile', list, '--separator', 'none']);
    expect(text.code).toBe(0);
    for (const raw of ['\u202e', '\u0007', '\u00a0']) expect(text.stdout).not.toContain(raw);
    expect(text.stdout).toContain('  "evil\\u202eexe.txt"\n');
    expect(text.stdout).toContain('  "Trap\\u00a0User" ~ "trap user": spaces inside, capitals\n');
    const json = await f.cli(['users', 'reconcile', list, '--separator', 'none', '--json']);
    expect(json.stdout).not.toContain('\u202e');
    const result = JSON.parse(json.stdout) as ReconcileJson;
    expect(result.orphans).toContain('evil\u202eexe.txt');
    expect(result.orphans).toContain('bell\u0007here');
  });
});
