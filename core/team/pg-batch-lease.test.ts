import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import type { BatchJobStore } from '../batch/batch-job-store';
import type { BatchPlan } from '../batch/job-files';
import { openPgBatchJobs, type PgBatchJobsOptions } from './pg-batch-jobs';
import { openTeamDatabase, type TeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

const REPO_ROOT = join(__dirname, '..', '..');
const plan = (total: number): BatchPlan => ({ action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total, source: 'uids.txt' });

async function jobOf(store: BatchJobStore, total: number) {
  const journal = await store.createJob(plan(total), { flushEvery: 1000 });
  await journal.appendItems(Array.from({ length: total }, (_, index) => ({ line: index + 1, uid: `user-${index}` })));
  await journal.finishItems();
  return journal;
}

describe.skipIf(pgSkipReason() !== null)('who runs a team batch job: its lease', () => {
  let cluster: PgCluster;
  let url: string;
  const opened: TeamDatabase[] = [];
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => undefined)));
  });
  afterAll(async () => cluster?.destroy());

  /** Two desktops on one fresh database. */
  async function desktops(options: PgBatchJobsOptions = {}): Promise<[BatchJobStore, BatchJobStore, TeamDatabase]> {
    url = await cluster.createDatabase(`lease_${++databases}`);
    const address = parseTeamDatabaseUrl(url);
    const [one, two] = await Promise.all([openTeamDatabase(address, { password: cluster.password }), openTeamDatabase(address, { password: cluster.password })]);
    opened.push(one, two);
    return [openPgBatchJobs(one, options), openPgBatchJobs(two, options), one];
  }

  /** Each item's 'done' outcomes in the journal, across every run. */
  async function doneCounts(db: TeamDatabase, jobId: string): Promise<Map<number, number>> {
    const { rows } = await db.pool.query<{ item: number; count: string }>(
      "SELECT item, count(*) AS count FROM batch_events WHERE job_id = $1 AND kind = 'outcome' AND event->>'outcome' = 'done' GROUP BY item",
      [jobId],
    );
    return new Map(rows.map((row) => [row.item, Number(row.count)]));
  }

  it('two desktops starting the same job at once: one runs it, the other is told who does', async () => {
    const [one, two] = await desktops();
    const created = await jobOf(one, 3);
    await created.close();
    const tries = await Promise.allSettled([one.resumeJob(created.jobId), two.resumeJob(created.jobId)]);
    const ran = tries.filter((attempt) => attempt.status === 'fulfilled');
    const refused = tries.filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
    expect(ran).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toMatchObject({ outcome: 'not-sent' });
    expect(String((refused[0]?.reason as Error).message)).toContain(`Batch job ${created.jobId} is being run by process ${process.pid} on this computer`);
    expect(String((refused[0]?.reason as Error).message)).toContain(`lease of batch job ${created.jobId}`);
    await (ran[0] as PromiseFulfilledResult<Awaited<ReturnType<BatchJobStore['resumeJob']>>>).value.close();
  });

  it('a holder whose heartbeat stopped is taken over once its lease expires; it then writes nothing, and no item is done twice', async () => {
    let clock = Date.parse('2026-11-24T10:00:00.000Z');
    // No heartbeat within the test: the holder is as good as gone, only the (virtual) clock moves.
    const [one, two, db] = await desktops({ leaseNow: () => clock, heartbeatMs: 3_600_000, leaseMs: 30_000 });
    const stalled = await jobOf(one, 4);
    await stalled.recordStarted([0, 1]);
    await stalled.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    await stalled.flush();

    clock += 29_000;
    await expect(two.resumeJob(stalled.jobId)).rejects.toThrow(/is being run by process/);
    expect((await two.listJobs()).jobs[0]).toMatchObject({ jobId: stalled.jobId, state: 'running' });
    clock += 2_000; // 31 s without a heartbeat
    expect((await two.listJobs()).jobs[0]).toMatchObject({ jobId: stalled.jobId, state: 'unfinished' });
    const taken = await two.resumeJob(stalled.jobId);
    const state = await two.readJobState(stalled.jobId);
    expect([...state.unfinishedItems()].map(({ item, recheckAsUnknown }) => [item, recheckAsUnknown])).toEqual([[1, true], [2, false], [3, false]]);

    // The stalled holder comes back: its outcome is not written, and it sends nothing more.
    await stalled.recordOutcome({ item: 1, outcome: 'done', status: 200 });
    await expect(stalled.flush()).rejects.toThrow(/lost the run lock of batch job/);
    expect(stalled.signal.aborted).toBe(true);
    await expect(stalled.recordStarted([2])).rejects.toThrow(/lost the run lock/);
    await stalled.close().catch(() => undefined);

    await taken.recordStarted([1, 2, 3]);
    await taken.recordOutcome({ item: 1, outcome: 'done-before-interruption', status: 404 });
    await taken.recordOutcome({ item: 2, outcome: 'done', status: 200 });
    await taken.recordOutcome({ item: 3, outcome: 'done', status: 200 });
    await taken.close();
    expect([...(await doneCounts(db, stalled.jobId)).entries()].sort()).toEqual([[0, 1], [2, 1], [3, 1]]);
    expect((await one.readJobState(stalled.jobId)).counts).toMatchObject({ done: 3, 'done-before-interruption': 1 });
    expect((await one.jobRunner(stalled.jobId)).state).toBe('none');
  });

  it('a live holder’s heartbeat keeps its lease: past the first lease time, the job is still refused to another desktop', async () => {
    const taken = Date.parse('2026-11-24T10:00:00.000Z');
    let clock = taken;
    const [one, two, db] = await desktops({ leaseNow: () => clock, heartbeatMs: 20, leaseMs: 30_000 });
    const journal = await jobOf(one, 2);
    const expiry = async () => (await db.pool.query<{ expires_at: Date }>('SELECT expires_at FROM batch_leases WHERE job_id = $1', [journal.jobId])).rows[0]?.expires_at.getTime();
    expect(await expiry()).toBe(taken + 30_000);
    clock += 25_000;
    // The next heartbeat renews it from the (virtual) time it beats at.
    await expect.poll(expiry, { timeout: 20_000 }).toBe(clock + 30_000);
    clock += 25_000; // 50 s after it was taken, 25 s after its last heartbeat
    await expect(two.resumeJob(journal.jobId)).rejects.toThrow(/is being run by process/);
    await journal.close();
  });

  it('a desktop process killed while running is taken over at once from this computer, its items in flight re-checked', async () => {
    const [one, two] = await desktops();
    const created = await jobOf(one, 5);
    await created.close();
    // Another process runs the job: two items started, one done, then it waits to be killed.
    const HOLDER = `
      import { openTeamDatabase } from ${JSON.stringify(join(REPO_ROOT, 'core/team/team-database.ts'))};
      import { openPgBatchJobs } from ${JSON.stringify(join(REPO_ROOT, 'core/team/pg-batch-jobs.ts'))};
      import { parseTeamDatabaseUrl } from ${JSON.stringify(join(REPO_ROOT, 'core/team/team-url.ts'))};
      const db = await openTeamDatabase(parseTeamDatabaseUrl(process.argv[1]), { password: process.env.PD_TEST_DB_PASSWORD });
      const journal = await openPgBatchJobs(db).resumeJob(process.argv[2]);
      await journal.recordStarted([0, 1]);
      await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
      await journal.flush();
      console.log('running');
      setInterval(() => undefined, 1000);
    `;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER, url, created.jobId], {
      cwd: REPO_ROOT,
      env: { ...process.env, PD_TEST_DB_PASSWORD: cluster.password },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await once(holder.stdout!, 'data');
      await expect(two.resumeJob(created.jobId)).rejects.toThrow(`is being run by process ${holder.pid} on this computer`);
      holder.kill('SIGKILL');
      await once(holder, 'exit');
    } finally {
      if (holder.exitCode === null && holder.signalCode === null) holder.kill('SIGKILL');
    }
    // Its lease has not expired, but its process has ended here: the job is unfinished and resumed at once.
    expect(await two.jobRunner(created.jobId)).toEqual({ state: 'ended', pid: holder.pid });
    expect((await two.listJobs()).jobs[0]).toMatchObject({ jobId: created.jobId, state: 'unfinished' });
    const resumed = await two.resumeJob(created.jobId);
    const state = await two.readJobState(created.jobId);
    expect([state.stateOf(0), state.stateOf(1), state.stateOf(2)]).toEqual(['done', 'in-flight', 'never-started']);
    await resumed.close();
  }, 60_000);

  it('with the database stopped before an act, recordStarted refuses (not sent), and nothing reads as started once it is back', async () => {
    const [one, two] = await desktops();
    const journal = await jobOf(one, 2);
    await cluster.stopServer();
    try {
      const refused = await journal.recordStarted([0]).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
      expect(String((refused as Error).message)).toMatch(/did not record the entry|could not be reached/);
    } finally {
      await cluster.startServer();
    }
    // This journal is over (the run stops); the job is as it was: nothing started, nothing to re-check.
    await expect(journal.recordStarted([0])).rejects.toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE' });
    await journal.close().catch(() => undefined);
    const state = await two.readJobState(journal.jobId);
    expect([state.stateOf(0), state.stateOf(1)]).toEqual(['never-started', 'never-started']);
  }, 60_000);
});
