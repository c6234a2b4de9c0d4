import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { importLocalTrail } from '../../core/team/pg-audit-import';
import { openTeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import { uidFile } from './batch-harness';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertSecretNowhereUnder, startCliFixture, type CliFixture, type CliRunOptions } from './cli-harness';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';

/**
 * `privacy-desk team …` against a real PostgreSQL server (a temporary cluster), in-process: connect, status,
 * the other commands on the team store, import, faults, disconnect — and the password nowhere but where it belongs.
 */
const skip = pgSkipReason();

describe.skipIf(skip !== null)('team mode from the CLI, on a real PostgreSQL server', () => {
  let cluster: PgCluster;
  let f: CliFixture;
  let url: string;
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());
  beforeEach(async () => {
    f = await startCliFixture(12);
    url = await cluster.createDatabase(`team_cli_${++databases}`);
  });
  afterEach(async () => {
    // The password is in no file of the data folder, whatever the test did.
    assertSecretNowhereUnder(f.dataDir, cluster.password);
    await f.close();
  });

  const withPassword = (password = cluster.password): CliRunOptions => ({ env: { PRIVACY_DESK_DATABASE_PASSWORD: password }, connection: false });
  /** Any command, with the database's password where a keychain would keep it (these tests use none). */
  const cli = async (args: string[], options: CliRunOptions = {}) => {
    const run = await f.cli(args, { ...options, env: { PRIVACY_DESK_DATABASE_PASSWORD: cluster.password, ...options.env } });
    expect(run.stdout + run.stderr).not.toContain(cluster.password);
    return run;
  };
  const team = async (args: string[], options: CliRunOptions = withPassword()) => {
    const run = await f.cli(['team', ...args], options);
    expect(run.stdout + run.stderr).not.toContain(cluster.password);
    return run;
  };
  const query = async (sql: string) => {
    const database = new URL(url).pathname.slice(1);
    const client = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: cluster.user, password: cluster.password, database });
    await client.connect();
    try {
      return (await client.query(sql)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  const teamFile = () => join(f.dataDir, 'team.json');
  /** A uid of the sandbox's users (the n-th of the first page). */
  const uid = async (n: number): Promise<string> => {
    const listed = await cli(['users', 'list', '--json']);
    return (JSON.parse(listed.stdout) as { users: Array<{ uid: string }> }).users[n]!.uid;
  };

  it('refuses an address with a password, or without TLS away from this computer, before any connection; nothing is saved', async () => {
    const plain = await team(['connect', '--database-url', 'postgres://dpo@db.example.org/desk?sslmode=disable']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/must be encrypted \(TLS\)/);
    const withSecret = await team(['connect', '--database-url', 'postgres://dpo:hunter2@127.0.0.1/desk']);
    expect(withSecret.code).toBe(2);
    expect(withSecret.stderr).toMatch(/holds a password/);
    expect(withSecret.stderr).not.toContain('hunter2');
    expect(existsSync(teamFile())).toBe(false);
  });

  it('says a wrong password was refused, and an absent server unreachable, and saves nothing', async () => {
    const wrong = await team(['connect', '--database-url', url], withPassword('not-the-password'));
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/refused the connection \(28P01\)/);
    expect(wrong.stderr).not.toContain('not-the-password');
    const nowhere = await team(['connect', '--database-url', url.replace(`:${cluster.port}/`, ':1/')]);
    expect(nowhere.code).not.toBe(0);
    expect(nowhere.stderr).toMatch(/could not be reached \(ECONNREFUSED\)/);
    expect(existsSync(teamFile())).toBe(false);
    const status = await team(['status', '--json']);
    expect(JSON.parse(status.stdout)).toEqual({ mode: 'local' });
  });

  it('connects, then audit, requests and acts work on the team database; status tells the role and counts; disconnect goes back to the local files', async () => {
    const connected = await team(['connect', '--database-url', url]);
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.stdout).toMatch(/now works on postgres:\/\/desk@127\.0\.0\.1:\d+\/team_cli_\d+ \(role desk\)/);
    const setting = JSON.parse(readFileSync(teamFile(), 'utf8')) as Record<string, unknown>;
    expect(setting).toMatchObject({ format: 1, address: expect.stringMatching(/^postgres:\/\/desk@127\.0\.0\.1/) });

    const u3 = await uid(3);
    const erased = await cli(['users', 'delete', u3, '--confirm', u3, '--reference', 'TEAM-1']);
    expect(erased.code, erased.stderr).toBe(0);
    expect((await f.sandboxUser(u3)).body?.state).toBe('deleted');
    // Nothing in the local trail: the entries are in the database, naming the desktop and the role.
    expect(f.auditLines()).toEqual([]);
    const rows = await query(`SELECT action, outcome, uid, db_role FROM audit_entries ORDER BY seq`);
    expect(rows).toContainEqual(expect.objectContaining({ action: 'delete', outcome: 'done', uid: u3, db_role: 'desk' }));

    const created = await cli(['requests', 'add', '--received', '2026-11-20T09:00:00+01:00', '--action', 'delete', '--uid', 'someone', '--requester', 'Ada', '--contact', 'ada@example.org', '--json'], { connection: false });
    expect(created.code, created.stderr).toBe(0);
    const listed = await cli(['audit', 'list', '--json', '--reference', 'TEAM-1'], { connection: false });
    expect(JSON.parse(listed.stdout).entries.map((e: { outcome: string }) => e.outcome)).toEqual(expect.arrayContaining(['attempted', 'done', 'verification']));
    const verified = await cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);

    // Nor does the database itself hold it: not in the trail, the register or the jobs.
    const leaks = await query(`SELECT (SELECT count(*) FROM audit_entries WHERE line LIKE '%${cluster.password}%') + (SELECT count(*) FROM register_events WHERE line LIKE '%${cluster.password}%') AS n`);
    expect(Number(leaks[0]!.n)).toBe(0);
    const status = JSON.parse((await team(['status', '--json'])).stdout);
    expect(status).toMatchObject({ mode: 'team', reachable: true, role: 'desk', password: 'environment', counts: { requests: 1, jobs: 0 } });
    expect(status.counts.auditEntries).toBeGreaterThanOrEqual(4);

    const left = await team(['disconnect']);
    expect(left.code).toBe(0);
    expect(left.stdout).toMatch(/stays in postgres:\/\/desk@/);
    expect(existsSync(teamFile())).toBe(false);
    expect(JSON.parse((await team(['status', '--json'])).stdout)).toEqual({ mode: 'local' });
    const local = await cli(['audit', 'list', '--json'], { connection: false });
    expect(JSON.parse(local.stdout).entries).toEqual([]);
  });

  it('a batch on the team store: its job in the database, its results file written here, every desktop listing it', async () => {
    expect((await team(['connect', '--database-url', url])).code).toBe(0);
    const two = [await uid(1), await uid(2)];
    const run = await cli(['batch', 'delete', uidFile(two), '--yes', 'DELETE 2', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/results file could not be written/);
    const summary = JSON.parse(run.stdout) as { batchId: string; resultsFile: string; counts: { done: number } };
    expect(summary.counts.done).toBe(2);
    expect(readFileSync(summary.resultsFile, 'utf8')).toContain(two[0]!);
    expect(await query('SELECT job_id FROM batch_jobs')).toEqual([{ job_id: summary.batchId }]);
    const listed = await cli(['batch', 'list', '--json'], { connection: false });
    expect(listed.stdout).toContain(summary.batchId);
  });

  it('a database away before an act: the act is not sent, in words; status says why', async () => {
    expect((await team(['connect', '--database-url', url])).code).toBe(0);
    const u5 = await uid(5);
    await cluster.stopServer();
    try {
      const erased = await cli(['users', 'delete', u5, '--confirm', u5]);
      expect(erased.code).not.toBe(0);
      expect(erased.stderr).toMatch(/could not be reached/);
      expect(erased.stderr).toMatch(/[Nn]othing was sent|[Nn]ot sent/);
      expect((await f.sandboxUser(u5)).body?.state).toBe('active');
      const status = await team(['status']);
      expect(status.code).toBe(1);
      expect(status.stdout).toMatch(/Reachable: no\. The team database .* could not be reached/);
    } finally {
      await cluster.startServer();
    }
  });

  it('imports the local trail once, keeping the chain: verify checks the join; a second import is refused', async () => {
    const u7 = await uid(7);
    const local = await cli(['users', 'anonymize', u7, '--confirm', u7]);
    expect(local.code, local.stderr).toBe(0);
    const request = await cli(['requests', 'add', '--received', '2026-11-20T09:00:00+01:00', '--action', 'anonymize', '--uid', u7, '--requester', 'Grace', '--contact', 'grace@example.org', '--json'], { connection: false });
    expect(request.code, request.stderr).toBe(0);
    const requestId = (JSON.parse(request.stdout) as { id: string }).id;
    const localEntries = f.auditLines().length;
    expect(localEntries).toBeGreaterThan(0);
    expect((await team(['connect', '--database-url', url])).code).toBe(0);
    const unconfirmed = await team(['import']);
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/--yes IMPORT/);

    const imported = await team(['import', '--yes', 'IMPORT', '--json']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ auditEntries: localEntries, firstSeq: 1, localHeadHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.parse(imported.stdout)).toMatchObject({ requests: 1, registerEvents: 1 });
    const verified = await cli(['audit', 'verify', '--json'], { connection: false });
    expect(verified.code, verified.stdout).toBe(0);
    // The register moved: the request is read from the team database. (Its requester stays unreadable here: these
    // tests keep no keychain, so the folder's register key lived only as long as the command that made it.)
    const shown = await cli(['requests', 'show', requestId, '--json'], { connection: false });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: requestId, subjects: [expect.objectContaining({ uid: u7 })] });
    const again = await team(['import', '--yes', 'IMPORT']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/A second import is refused/);
  });

  it('an import cut short after its trail goes on with the rest when run again', async () => {
    const u8 = await uid(8);
    expect((await cli(['users', 'delete', u8, '--confirm', u8])).code).toBe(0);
    const request = await cli(['requests', 'add', '--received', '2026-11-21T10:00:00+01:00', '--action', 'delete', '--uid', u8, '--json'], { connection: false });
    expect(request.code, request.stderr).toBe(0);
    expect((await team(['connect', '--database-url', url])).code).toBe(0);
    // What a first run had done when the database went away: the trail, in its own transaction, and nothing else.
    const db = await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password });
    try {
      await importLocalTrail(db, readFileSync(join(f.dataDir, 'audit.jsonl'), 'utf8'));
    } finally {
      await db.close();
    }
    const resumed = await team(['import', '--yes', 'IMPORT', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ auditEntries: 0, trailAlreadyThere: { id: 'team.import.again' }, requests: 1 });
    const verified = await cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect((await team(['import', '--yes', 'IMPORT'])).stderr).toMatch(/A second import is refused/);
  });
});
