import { z } from 'zod';
import { errorInfoSchema } from './errors';
import { profileIdSchema } from './profile';
import { MAX_PER_PAGE } from './users';
import { batchCheckResultSchema, batchIdSchema, batchProgressSchema, batchRunResultSchema, type BatchCheckResult, type BatchProgress, type BatchRunResult } from './batch';
import { batchRetryCheckResultSchema, type BatchRetryCheck } from './batch-retry';
import { reconcileSummarySchema, type ReconcileSummary } from './reconcile';

/**
 * Long work that runs in the main process as a job: started by a bridge
 * method that answers `{ jobId }` at once, reported by `job.progress` events,
 * ended by exactly one `job.finished` event, and stoppable with `jobs.cancel`.
 * A job kind adds its own progress and result shapes here and widens `kind`.
 */

export const jobIdSchema = z.string().min(1).max(100);

/** How many uids a finished walk names: a sample to show, never the whole list. */
export const WALK_SAMPLE_SIZE = 10;

/** `users.walk`: every page of the users list, one progress event per page. */
export const usersWalkInputSchema = z.object({
  profileId: profileIdSchema,
  perPage: z.number().int().min(1).max(MAX_PER_PAGE).default(MAX_PER_PAGE),
});

const usersWalkJob = { jobId: jobIdSchema, kind: z.literal('users.walk') };

export const usersWalkProgressSchema = z.object({
  page: z.number().int().min(1),
  /** Missing when the service gives no paging information. */
  totalPages: z.number().int().min(0).optional(),
  /** Distinct users seen so far. */
  collected: z.number().int().min(0),
});

export const usersWalkResultSchema = z.object({
  users: z.number().int().min(0),
  pages: z.number().int().min(0),
  /** The first few uids met (anonymised users have none). */
  firstUids: z.array(z.string()).max(WALK_SAMPLE_SIZE),
});

/** `users.index`: the same walk, kept in memory for "find a person on any page" (shared/user-search.ts). */
export const usersIndexInputSchema = z.object({ profileId: profileIdSchema });

const usersIndexJob = { jobId: jobIdSchema, kind: z.literal('users.index') };

export const usersIndexResultSchema = z.object({
  users: z.number().int().min(0),
  pages: z.number().int().min(0),
  /** ISO 8601 time the index was built. */
  indexedAt: z.string(),
});

/** `batch.check`: a walk of the users list that counts which of a draft's uids exist (shared/batch.ts). */
const batchCheckJob = { jobId: jobIdSchema, kind: z.literal('batch.check') };
/** `batch.retryCheck`: a walk of the users list that says which of a finished job's failed uids are still on the service (shared/batch-retry.ts). */
const batchRetryCheckJob = { jobId: jobIdSchema, kind: z.literal('batch.retryCheck') };
/** `batch.start` / `batch.resume` / `batch.retry`: a batch erasure running (shared/batch.ts); its progress names the batch job. */
const batchRunJob = { jobId: jobIdSchema, kind: z.literal('batch.run') };
/** `reconcile.start`: the application's uid list against a walk of every user (shared/reconcile.ts); its result is the summary, the sets stay in the main process. */
const reconcileJob = { jobId: jobIdSchema, kind: z.literal('reconcile') };

export const jobProgressSchema = z.discriminatedUnion('kind', [
  z.object({ ...usersWalkJob, ...usersWalkProgressSchema.shape }),
  z.object({ ...usersIndexJob, ...usersWalkProgressSchema.shape }),
  z.object({ ...batchCheckJob, ...usersWalkProgressSchema.shape }),
  z.object({ ...batchRetryCheckJob, ...usersWalkProgressSchema.shape }),
  z.object({ ...batchRunJob, ...batchProgressSchema.shape }),
  z.object({ ...reconcileJob, ...usersWalkProgressSchema.shape }),
]);

/** completed: the work ran to its end; cancelled: it stopped after `jobs.cancel`; failed: it stopped on an error. */
export const jobFinishedSchema = z.union([
  z.object({ ...usersWalkJob, status: z.literal('completed'), result: usersWalkResultSchema }),
  z.object({ ...usersWalkJob, status: z.literal('cancelled') }),
  z.object({ ...usersWalkJob, status: z.literal('failed'), error: errorInfoSchema }),
  z.object({ ...usersIndexJob, status: z.literal('completed'), result: usersIndexResultSchema }),
  z.object({ ...usersIndexJob, status: z.literal('cancelled') }),
  z.object({ ...usersIndexJob, status: z.literal('failed'), error: errorInfoSchema }),
  z.object({ ...batchCheckJob, status: z.literal('completed'), result: batchCheckResultSchema }),
  z.object({ ...batchCheckJob, status: z.literal('cancelled') }),
  z.object({ ...batchCheckJob, status: z.literal('failed'), error: errorInfoSchema }),
  z.object({ ...batchRetryCheckJob, status: z.literal('completed'), result: batchRetryCheckResultSchema }),
  z.object({ ...batchRetryCheckJob, status: z.literal('cancelled') }),
  z.object({ ...batchRetryCheckJob, status: z.literal('failed'), error: errorInfoSchema }),
  // A cancelled run still reports its counts (result.state 'cancelled'); 'cancelled' without a result is a cancel before it started.
  z.object({ ...batchRunJob, status: z.literal('completed'), result: batchRunResultSchema }),
  z.object({ ...batchRunJob, status: z.literal('cancelled'), batchId: batchIdSchema.optional() }),
  z.object({ ...batchRunJob, status: z.literal('failed'), error: errorInfoSchema, batchId: batchIdSchema.optional() }),
  z.object({ ...reconcileJob, status: z.literal('completed'), result: reconcileSummarySchema }),
  z.object({ ...reconcileJob, status: z.literal('cancelled') }),
  z.object({ ...reconcileJob, status: z.literal('failed'), error: errorInfoSchema }),
]);

export type JobProgress = z.output<typeof jobProgressSchema>;
export type JobFinished = z.output<typeof jobFinishedSchema>;
export type JobKind = JobProgress['kind'];
export type UsersWalkProgress = z.output<typeof usersWalkProgressSchema>;
export type UsersWalkResult = z.output<typeof usersWalkResultSchema>;
export type UsersIndexResult = z.output<typeof usersIndexResultSchema>;

/** Per kind: what its work reports and returns (the registry adds jobId and kind). */
export interface JobShapes {
  'users.walk': { progress: UsersWalkProgress; result: UsersWalkResult };
  'users.index': { progress: UsersWalkProgress; result: UsersIndexResult };
  'batch.check': { progress: UsersWalkProgress; result: BatchCheckResult };
  'batch.retryCheck': { progress: UsersWalkProgress; result: BatchRetryCheck };
  'batch.run': { progress: BatchProgress; result: BatchRunResult };
  reconcile: { progress: UsersWalkProgress; result: ReconcileSummary };
}
