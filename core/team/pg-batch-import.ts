/**
 * `team import` for batch jobs: the data folder's jobs copied into the team database, as they are — plan, items and
 * every journal event with its own seq — so their counts, results and retries are the same read from there. Each job
 * is copied in one transaction under its local run lock (no process runs it meanwhile). A job already in the team
 * database (imported before) is left as it is, so importing again is harmless; a job a process runs now, or whose
 * files are damaged, is not copied and is named with why. The local files stay where they are.
 */
import { PrivacyDeskError } from '../../shared/errors';
import { listJobs } from '../batch/job-list';
import type { BatchItem, JournalEvent } from '../batch/job-files';
import { journalDamage, readItems, readJobState, readJournalEvents, readPlan } from '../batch/job-state';
import { takeRunLock } from '../batch/run-lock';
import { insertEvents } from './pg-batch-journal';
import { query } from './pg-batch-read';
import { teamStoreError, type TeamDatabase } from './team-database';

export interface BatchImportReport {
  imported: Array<{ jobId: string; items: number; events: number }>;
  /** In the team database already (imported before): left as they are. */
  alreadyThere: string[];
  /** Not copied, and why (run by a process now, damaged files, the database out of reach): nothing of them was written. */
  notImported: Array<{ jobId: string; error: PrivacyDeskError }>;
}

const CHUNK = 5_000;

export async function importLocalBatchJobs(dataDir: string, db: TeamDatabase, options: { operator?: string } = {}): Promise<BatchImportReport> {
  const report: BatchImportReport = { imported: [], alreadyThere: [], notImported: [] };
  const { jobs, damaged } = await listJobs(dataDir);
  for (const job of damaged) report.notImported.push({ jobId: job.jobId, error: new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: job.text }) });
  // Oldest first: the team's list orders them by when they were made, whatever order they arrive in.
  for (const { jobId } of [...jobs].reverse()) {
    try {
      const [row] = await query<{ found: boolean }>(db, 'SELECT true AS found FROM batch_jobs WHERE job_id = $1', [jobId]);
      if (row) {
        report.alreadyThere.push(jobId);
        continue;
      }
      const lock = await takeRunLock(dataDir, jobId);
      try {
        report.imported.push(await copyJob(dataDir, db, jobId, options.operator ?? 'unknown'));
      } finally {
        await lock.release();
      }
    } catch (error) {
      report.notImported.push({ jobId, error: teamStoreError(db.where, error) });
    }
  }
  return report;
}

async function copyJob(dataDir: string, db: TeamDatabase, jobId: string, operator: string) {
  const plan = readPlan(dataDir, jobId);
  // Read under the lock: a damaged journal is not copied (it would be damaged there too).
  const state = await readJobState(dataDir, jobId);
  if (state.corruptLines.length > 0) throw journalDamage(dataDir, jobId, state.corruptLines);
  return db.transaction(async (client) => {
    await client.query('INSERT INTO batch_jobs (job_id, plan, created_at, total, desktop, operator, imported_from) VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7)', [
      jobId,
      JSON.stringify(plan),
      plan.createdAt,
      plan.total,
      db.desktop,
      operator,
      dataDir,
    ]);
    let items: BatchItem[] = [];
    let itemCount = 0;
    const flushItems = async () => {
      if (items.length === 0) return;
      await client.query('INSERT INTO batch_items (job_id, idx, item) SELECT $1, idx, item::jsonb FROM unnest($2::int[], $3::text[]) AS t(idx, item)', [
        jobId,
        items.map((_, index) => itemCount + index),
        items.map((item) => JSON.stringify(item)),
      ]);
      itemCount += items.length;
      items = [];
    };
    for await (const { index: _index, ...item } of readItems(dataDir, jobId)) {
      items.push(item);
      if (items.length >= CHUNK) await flushItems();
    }
    await flushItems();
    let events: JournalEvent[] = [];
    let eventCount = 0;
    for await (const event of readJournalEvents(dataDir, jobId)) {
      events.push(event);
      if (events.length >= CHUNK) {
        await insertEvents(client, db, jobId, events, 0);
        eventCount += events.length;
        events = [];
      }
    }
    if (events.length > 0) await insertEvents(client, db, jobId, events, 0);
    return { jobId, items: itemCount, events: eventCount + events.length };
  });
}
