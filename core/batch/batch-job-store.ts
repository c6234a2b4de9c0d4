/**
 * Where batch jobs are kept: plan, items, journal events, who runs each job (and whether it is paused or stopping).
 * desk.batch (desk-batch.ts) and batch retry (retry-failed.ts) use only this, so they run the same on either store:
 * - the data folder (this file, `openFileBatchJobs`): `batches/<jobId>/` as journal.ts describes, the default;
 * - the team database (core/team/pg-batch-jobs.ts, `openPgBatchJobs`): the same events as rows, and a lease per
 *   running job instead of run.lock, so every desktop of the team sees every job and one desktop runs each.
 * Drafts (previews, checks) stay in the data folder in both: a draft is one desktop's preview before anything is run.
 *
 * The promise of both (journal.ts): a 'started' record is durable before its item is sent; outcomes are buffered
 * and made durable together; an item recorded final is never sent again; one process runs a job at a time, and a
 * second one is told which one does (BatchJobHolder).
 */
import type { BatchResultRow, BatchResultsFile } from '../../shared/batch';
import type { PrivacyDeskError } from '../../shared/errors';
import type { BatchItem, BatchPlan } from './job-files';
import { listJobs, type JobList } from './job-list';
import { journalDamage, readItems, readJobState, type JobState } from './job-state';
import { createJob, resumeJob, type Journal, type JournalOptions } from './journal';
import { exportResults, readResults } from './results';
import type { BatchResultsFormat } from './results-export';
import { jobRunner, type JobRunner } from './run-lock';

export interface BatchJobStore {
  /** 'data-folder': this computer's files; 'team': the team database. */
  readonly kind: 'data-folder' | 'team';
  /** Where the jobs are, as shown to users: the data folder's path, or the database's address (no password). */
  readonly where: string;
  /** Records the plan, makes this process the job's runner, and returns its journal (items are appended next). */
  createJob(plan: BatchPlan, options?: JournalOptions): Promise<Journal>;
  /** Makes this process the runner of an existing job (or throws, naming who runs it) and returns its journal. */
  resumeJob(jobId: string, options?: JournalOptions): Promise<Journal>;
  /** Where each item stands, from the journal (INVALID_INPUT when there is no such job). */
  readJobState(jobId: string): Promise<JobState>;
  /** The job's items in order (index = position). */
  readItems(jobId: string): AsyncIterable<BatchItem & { index: number }>;
  /** Every job, newest first, with its state, counts and runner; and the damaged ones. */
  listJobs(): Promise<JobList>;
  /** Who runs the job now, as every process reads it. */
  jobRunner(jobId: string): Promise<JobRunner>;
  /** One row per item, in input order, streamed. */
  readResults(jobId: string): AsyncIterable<BatchResultRow>;
  exportResults(jobId: string, format: BatchResultsFormat, options?: { now?: () => Date }): Promise<BatchResultsFile>;
  /** The error that stops a run of a job whose journal has events that cannot be read (JobState.corruptLines). */
  journalDamage(jobId: string, corruptLines: readonly number[]): PrivacyDeskError;
}

/** The jobs of a data folder (`<dataDir>/batches/`): today's files, unchanged. */
export function openFileBatchJobs(dataDir: string): BatchJobStore {
  return {
    kind: 'data-folder',
    where: dataDir,
    createJob: (plan, options) => createJob(dataDir, plan, options),
    resumeJob: (jobId, options) => resumeJob(dataDir, jobId, options),
    readJobState: (jobId) => readJobState(dataDir, jobId),
    readItems: (jobId) => readItems(dataDir, jobId),
    listJobs: () => listJobs(dataDir),
    jobRunner: (jobId) => jobRunner(dataDir, jobId),
    readResults: (jobId) => readResults(dataDir, jobId),
    exportResults: (jobId, format, options) => exportResults(dataDir, jobId, format, options),
    journalDamage: (jobId, corruptLines) => journalDamage(dataDir, jobId, corruptLines),
  };
}

export type { JobState, Journal, JournalOptions, JobList, JobRunner };
