import { z } from 'zod';
import { batchIdSchema, DEFAULT_BATCH_CONCURRENCY, MAX_BATCH_CONCURRENCY, PREVIEW_ENDS } from './batch';

/**
 * Sending a finished job's failed items again (the console's "Send the failed items again", the CLI's
 * `batch retry`), as new attempts of the same job:
 *   check — a walk of the users list says which failed uids are still on the service (read-only); those
 *           that are not are recorded (not found, or done before) and never sent;
 *   retry — the operator types the phrase for the items it sends (`DELETE 3`); the job runs again, its
 *           results and counts in the same files.
 * Only failed items are sent again, never done or not-found ones; a job with unfinished items is resumed first.
 */

/** How many uids the check names of those no longer on the service (all are counted). */
export const RETRY_CHECK_SAMPLE = 20;

export const batchRetryCheckInputSchema = z.object({ batchId: batchIdSchema });

export const batchRetryCheckResultSchema = z.object({
  /** Names this check to batch.retry: it sends exactly what the check found still there. Used once. */
  checkId: z.string().min(1).max(100),
  batchId: batchIdSchema,
  /** Users the walk met. */
  users: z.number().int().min(0),
  /** The job's failed items, all checked. */
  failed: z.number().int().min(0),
  /** Of them, still on the service: what the retry sends, and the count in its phrase. */
  toSend: z.number().int().min(0),
  /** The first and last of those it sends, in the job's order (no uid in both). */
  firstUids: z.array(z.string()).max(PREVIEW_ENDS),
  lastUids: z.array(z.string()).max(PREVIEW_ENDS),
  /** Of them, no longer on the service: recorded without sending, as the check before a start would have them end. */
  gone: z.object({
    count: z.number().int().min(0),
    /** An earlier attempt got no clear answer: it most likely erased the user (as a 404 on a retry says). */
    doneBeforeInterruption: z.number().int().min(0),
    /** Already erased, or never existed. */
    notFound: z.number().int().min(0),
    sample: z.array(z.string()).max(RETRY_CHECK_SAMPLE),
  }),
});
export type BatchRetryCheck = z.output<typeof batchRetryCheckResultSchema>;

export const batchRetryInputSchema = z.object({
  batchId: batchIdSchema,
  /** The check whose findings the operator saw (batch.retryCheck); the console always checks first. */
  checkId: z.string().min(1).max(100),
  concurrency: z.number().int().min(1).max(MAX_BATCH_CONCURRENCY).default(DEFAULT_BATCH_CONCURRENCY),
  /** What the operator typed: must match batchConfirmationPhrase(action, the check's toSend), e.g. `DELETE 3`. */
  confirmation: z.string().max(100),
});
