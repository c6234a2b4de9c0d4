/**
 * The team database's batch jobs (team mode): the BatchJobStore of core/batch/batch-job-store.ts on PostgreSQL.
 * Every desktop of the team lists every job with its counts (read from the database as the runner commits them) and
 * who runs it; one desktop runs a job at a time (its lease: pg-batch-lease.ts); the journal's promise is the data
 * folder's (pg-batch-journal.ts). Drafts stay in each desktop's data folder.
 */
import { userInfo } from 'node:os';
import { msg } from '../../shared/messages';
import { BatchFileError, damagedBatchFile, type BatchFileDamage } from '../batch/batch-file-schemas';
import type { BatchJobStore, JournalOptions } from '../batch/batch-job-store';
import { newJobId, type StoredPlan } from '../batch/job-files';
import type { JobDamage, JobSummary } from '../batch/job-list';
import { resultsFileOf } from '../batch/results-export';
import { claimLease, DEFAULT_HEARTBEAT_MS, DEFAULT_LEASE_MS, holdLease, leaseRunner, readLeases, runnerOf, takeLease, type LeaseTimings } from './pg-batch-lease';
import { openPgJournal } from './pg-batch-journal';
import { createJobStates, jobRowsWhere, planOf, query, readPgItems, readPgPlan, readPgResults } from './pg-batch-read';
import type { TeamDatabase } from './team-database';

export interface PgBatchJobsOptions {
  /** The clock of job ids and journal times (default Date.now). */
  now?: () => number;
  /** Who runs a job, as its lease names them (default: the OS user). */
  operator?: string;
  /** A lease without a heartbeat for this long has expired and may be taken over (default 30 s). */
  leaseMs?: number;
  heartbeatMs?: number;
  /** The clock leases are judged by (tests: a virtual one); default the database's. */
  leaseNow?: () => number;
  /** Buffered outcomes committed at least this often during a run, so every desktop sees the counts move (default 2 s). */
  flushIntervalMs?: number;
}

export function openPgBatchJobs(db: TeamDatabase, options: PgBatchJobsOptions = {}): BatchJobStore {
  const now = options.now ?? Date.now;
  const timings: LeaseTimings = {
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    operator: options.operator ?? osUser(),
    ...(options.leaseNow ? { now: options.leaseNow } : {}),
  };
  const states = createJobStates(db);
  const journalOptions = (given: JournalOptions = {}) => ({
    now: given.now ?? (() => new Date(now())),
    ...(given.flushEvery !== undefined ? { flushEvery: given.flushEvery } : {}),
    ...(options.flushIntervalMs !== undefined ? { flushIntervalMs: options.flushIntervalMs } : {}),
  });

  const store: BatchJobStore = {
    kind: 'team',
    where: db.where,

    async createJob(plan, given) {
      if (!Number.isInteger(plan.total) || plan.total < 0) throw new Error(`Invalid batch total ${plan.total}`);
      const createdAt = given?.now ? given.now() : new Date(now());
      const stored: StoredPlan = { ...plan, jobId: newJobId(createdAt), createdAt: createdAt.toISOString() };
      // The job and its lease in one transaction: no desktop lists it as unfinished (and resumes it) while it is being created.
      const leaseId = await db.transaction(async (client) => {
        await client.query('INSERT INTO batch_jobs (job_id, plan, created_at, total, desktop, operator) VALUES ($1, $2::jsonb, $3, $4, $5, $6)', [
          stored.jobId,
          JSON.stringify(stored),
          stored.createdAt,
          stored.total,
          db.desktop,
          timings.operator,
        ]);
        return (await claimLease(client, stored.jobId, timings)) as string; // a new job has no lease yet
      });
      const lease = holdLease(db, stored.jobId, leaseId, timings);
      return openPgJournal(db, stored, lease, { nextSeq: 1, itemCount: 0, itemsFinished: false }, journalOptions(given));
    },

    async resumeJob(jobId, given) {
      const plan = await readPgPlan(db, jobId);
      const lease = await takeLease(db, jobId, timings);
      try {
        // Read under the lease: what the last run committed is all there is.
        const state = await states.readJobState(jobId, plan);
        if (state.corruptLines.length > 0) throw store.journalDamage(jobId, state.corruptLines);
        for await (const _item of readPgItems(db, jobId));
        return openPgJournal(db, plan, lease, { nextSeq: state.lastSeq + 1, itemCount: state.itemCount, itemsFinished: true }, journalOptions(given));
      } catch (error) {
        await lease.release();
        throw error;
      }
    },

    readJobState: (jobId) => states.readJobState(jobId),
    readItems: (jobId) => readPgItems(db, jobId),
    jobRunner: (jobId) => leaseRunner(db, jobId, timings),
    readResults: (jobId) => readPgResults(db, jobId),
    exportResults: async (jobId, format, given) => resultsFileOf(await readPgPlan(db, jobId), readPgResults(db, jobId), format, given),

    journalDamage: (jobId, corruptLines) =>
      damagedBatchFile({ path: jobRowsWhere(db, jobId, 'batch_events'), line: corruptLines[0] as number, why: msg('batch.file.notEvent', { count: corruptLines.length }) }),

    async listJobs() {
      const rows = await query<{ job_id: string; plan: unknown; created_at: Date }>(db, 'SELECT job_id, plan, created_at FROM batch_jobs ORDER BY created_at DESC, job_id DESC', []);
      const summaries: Array<Omit<JobSummary, 'state'>> = [];
      const damaged: JobDamage[] = [];
      for (const row of rows) {
        let plan: StoredPlan | undefined;
        try {
          plan = planOf(db, row.job_id, row.plan);
          const state = await states.readJobState(row.job_id, plan);
          // What resume would refuse, the list says: a job is offered only when it could be resumed.
          if (state.corruptLines.length > 0) throw store.journalDamage(row.job_id, state.corruptLines);
          summaries.push({ jobId: row.job_id, plan, counts: state.counts, unfinished: state.unfinished });
        } catch (error) {
          if (!(error instanceof BatchFileError)) throw error;
          damaged.push(damageOf(row.job_id, row.created_at, error.damage, plan));
        }
      }
      // Who runs each job, read after their journals (as the data folder's list reads its run locks): one query for all.
      const leases = await readLeases(db, timings);
      const jobs = summaries.map((summary): JobSummary => {
        const runner = runnerOf(db, summary.jobId, leases.get(summary.jobId));
        if (runner.state === 'running' || runner.state === 'paused' || runner.state === 'stopping') return { ...summary, state: runner.state, ...(runner.holder ? { holder: runner.holder } : {}) };
        return { ...summary, state: summary.unfinished > 0 ? 'unfinished' : 'finished' };
      });
      return { jobs, damaged };
    },
  };
  return store;
}

function damageOf(jobId: string, createdAt: Date, damage: BatchFileDamage, plan: StoredPlan | undefined): JobDamage {
  const { path, line, why } = damage;
  const file = path.includes('(batch_events') ? 'journal.jsonl' : path.includes('(batch_items') ? 'items.jsonl' : 'plan.json';
  const entry: JobDamage = {
    jobId,
    createdAt: createdAt.toISOString(),
    file,
    path,
    text: line !== undefined ? msg('batch.damaged.line', { line, path, why, job: jobId }) : msg('batch.damaged.file', { path, why, job: jobId }),
  };
  if (line !== undefined) entry.line = line;
  if (damage.detail !== undefined) entry.quote = { from: 'system', text: damage.detail };
  if (plan) entry.plan = plan;
  return entry;
}

function osUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
