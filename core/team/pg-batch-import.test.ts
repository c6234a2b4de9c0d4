import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import type { BatchResultRow } from '../../shared/batch';
import { openFileBatchJobs, type BatchJobStore } from '../batch/batch-job-store';
import { jobPaths, type BatchPlan } from '../batch/job-files';
import { importLocalBatchJobs } from './pg-batch-import';
import { openPgBatchJobs } from './pg-batch-jobs';
import { openTeamDatabase, type TeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

const plan = (total: number): BatchPlan => ({ action: 'anonymize', profileId: 'p1', profileName: 'Prod', baseUrl: 'https://api.example.org', logoutFirst: true, total, source: 'leavers.csv', reference: 'DPO-42' });

async function rows(store: BatchJobStore, jobId: string): Promise<BatchResultRow[]> {
  const all: BatchResultRow[] = [];
  for await (const row of store.readResults(jobId)) all.push(row);
  return all;
}

describe.skipIf(pgSkipReason() !== null)('team import of a data folder batch jobs', () => {
  let cluster: PgCluster;
  let db: TeamDatabase;
  let dataDir: string;
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'batch-import-'));
    db = await openTeamDatabase(parseTeamDatabaseUrl(await cluster.createDatabase(`import_${++databases}`)), { password: cluster.password });
  });
  afterEach(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterAll(async () => cluster?.destroy());

  it('copies plan, items and journal as they are: the team reads the same counts and results, resumes it, and a second import changes nothing', async () => {
    const local = openFileBatchJobs(dataDir);
    const journal = await local.createJob(plan(4), { now: () => new Date('2026-11-20T08:00:00.000Z') });
    await journal.appendItems([
      { line: 2, uid: 'a' },
      { line: 3, uid: 'b', reference: 'OWN-1' },
      { line: 4, uid: 'c ', pastedUid: 'c ' },
      { line: 5, uid: 'd', missingAtCheck: true },
    ]);
    await journal.finishItems();
    await journal.recordStarted([0, 1, 2]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200, requestId: 'r-0' });
    await journal.recordOutcome({ item: 1, outcome: 'failed', status: 503 });
    await journal.recordRetry([{ item: 1, recheck: true }]);
    await journal.close();

    const report = await importLocalBatchJobs(dataDir, db, { operator: 'dpo' });
    expect(report).toEqual({ imported: [{ jobId: journal.jobId, items: 4, events: 6 }], alreadyThere: [], notImported: [] });

    const team = openPgBatchJobs(db);
    const [there, here] = await Promise.all([team.readJobState(journal.jobId), local.readJobState(journal.jobId)]);
    expect(there.counts).toEqual(here.counts);
    expect([...there.unfinishedItems()]).toEqual([...here.unfinishedItems()]);
    expect(there.plan).toEqual(here.plan);
    expect(await rows(team, journal.jobId)).toEqual(await rows(local, journal.jobId));
    const resumed = await team.resumeJob(journal.jobId);
    await resumed.recordStarted([1, 2, 3]);
    await resumed.close();
    expect((await team.readJobState(journal.jobId)).lastSeq).toBe(here.lastSeq + 3);

    expect(await importLocalBatchJobs(dataDir, db)).toEqual({ imported: [], alreadyThere: [journal.jobId], notImported: [] });
  });

  it('leaves out a job a process runs now and a damaged one, saying why, and copies nothing of them', async () => {
    const local = openFileBatchJobs(dataDir);
    const running = await local.createJob(plan(1), { now: () => new Date('2026-11-20T08:00:00.000Z') });
    await running.appendItems([{ line: 1, uid: 'x' }]);
    await running.finishItems();
    const damaged = await local.createJob(plan(1), { now: () => new Date('2026-11-20T09:00:00.000Z') });
    await damaged.appendItems([{ line: 1, uid: 'y' }]);
    await damaged.finishItems();
    await damaged.close();
    appendFileSync(jobPaths(dataDir, damaged.jobId).journal, 'not an event\n');

    const report = await importLocalBatchJobs(dataDir, db);
    expect(report.imported).toEqual([]);
    const why = Object.fromEntries(report.notImported.map(({ jobId, error }) => [jobId, error.message]));
    expect(why[running.jobId]).toContain(`is being run by process ${process.pid}`);
    expect(why[damaged.jobId]).toMatch(/journal\.jsonl/);
    expect((await openPgBatchJobs(db).listJobs()).jobs).toEqual([]);
    await running.close();
  });
});
