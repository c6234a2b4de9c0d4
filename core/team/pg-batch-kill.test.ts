import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { openPgBatchJobs } from './pg-batch-jobs';
import { openTeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

const REPO_ROOT = join(__dirname, '..', '..');
const TOTAL = 5_000;
const GROUP = 5;

/**
 * Four desktop processes run a job each on one team database, writing as fast as they can; one is SIGKILLed mid-run.
 * What it committed is whole — every 'started' group and the outcomes that went with it, numbered without a gap —
 * and its job is taken over at once from this computer, its items in flight to re-check.
 */
describe.skipIf(pgSkipReason() !== null)('team batch writers killed mid-run', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  it('leaves no gap and no part of a write, and the job is resumed with what was in flight', async () => {
    const url = await cluster.createDatabase('killed');
    // Each writer: a job of TOTAL items, started GROUP at a time with the outcomes of the group before; it says each commit.
    const WRITER = `
      import { openTeamDatabase } from ${JSON.stringify(join(REPO_ROOT, 'core/team/team-database.ts'))};
      import { openPgBatchJobs } from ${JSON.stringify(join(REPO_ROOT, 'core/team/pg-batch-jobs.ts'))};
      import { parseTeamDatabaseUrl } from ${JSON.stringify(join(REPO_ROOT, 'core/team/team-url.ts'))};
      const db = await openTeamDatabase(parseTeamDatabaseUrl(process.argv[1]), { password: process.env.PD_TEST_DB_PASSWORD });
      const journal = await openPgBatchJobs(db).createJob({ action: 'delete', profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total: ${TOTAL}, source: 'kill.txt' }, { flushEvery: 1000000 });
      for (let from = 0; from < ${TOTAL}; from += 1000) await journal.appendItems(Array.from({ length: 1000 }, (_, i) => ({ line: from + i + 1, uid: 'u-' + (from + i) })));
      await journal.finishItems();
      console.log(journal.jobId);
      for (let from = 0; from < ${TOTAL}; from += ${GROUP}) {
        const group = Array.from({ length: ${GROUP} }, (_, i) => from + i);
        await journal.recordStarted(group);
        console.log('committed ' + from);
        for (const item of group) await journal.recordOutcome({ item, outcome: 'done', status: 200 });
      }
      await journal.close();
      await db.close();
    `;
    const writers = Array.from({ length: 4 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER, url], { cwd: REPO_ROOT, env: { ...process.env, PD_TEST_DB_PASSWORD: cluster.password }, stdio: ['ignore', 'pipe', 'inherit'] }),
    );
    const victim = writers[0]!;
    const lines = createInterface({ input: victim.stdout! });
    let victimJob = '';
    try {
      for await (const line of lines) {
        if (!victimJob) victimJob = line.trim();
        // Killed well into its run, while the others write too.
        else if (line === 'committed 500') break;
      }
      victim.kill('SIGKILL');
      await once(victim, 'exit');
      for (const writer of writers.slice(1)) if (writer.exitCode === null) await once(writer, 'exit');
    } finally {
      for (const writer of writers) if (writer.exitCode === null && writer.signalCode === null) writer.kill('SIGKILL');
    }
    expect(writers.slice(1).map((writer) => writer.exitCode)).toEqual([0, 0, 0]);

    const db = await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password });
    try {
      const { rows } = await db.pool.query<{ job_id: string; n: string; top: string; started: string }>(
        "SELECT job_id, count(*) AS n, max(seq) AS top, count(*) FILTER (WHERE kind = 'started') AS started FROM batch_events GROUP BY job_id",
      );
      expect(rows).toHaveLength(4);
      for (const row of rows) {
        expect(row.n, `${row.job_id}: numbered without a gap`).toBe(row.top);
        expect(Number(row.started) % GROUP, `${row.job_id}: 'started' groups whole`).toBe(0);
      }
      const store = openPgBatchJobs(db);
      const finished = (await store.listJobs()).jobs.filter((job) => job.jobId !== victimJob);
      expect(finished.map((job) => [job.state, job.counts.done])).toEqual([['finished', TOTAL], ['finished', TOTAL], ['finished', TOTAL]]);

      // The killed desktop's job: its lease is taken over at once, what it started without an outcome re-checked.
      const before = await store.readJobState(victimJob);
      expect(before.counts['in-flight']).toBeGreaterThanOrEqual(GROUP);
      expect(before.counts.done % GROUP).toBe(0);
      const resumed = await store.resumeJob(victimJob);
      const recheck = [...(await store.readJobState(victimJob)).unfinishedItems()].filter((item) => item.recheckAsUnknown).map((item) => item.item);
      expect(recheck).toHaveLength(before.counts['in-flight']);
      expect(recheck[0]).toBe(before.counts.done);
      await resumed.close();
    } finally {
      await db.close();
    }
  }, 120_000);
});
