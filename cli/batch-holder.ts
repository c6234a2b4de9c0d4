import { beingRunText } from '../core/batch/lock-holder';
import { DATA_LOCK_TIMINGS } from '../core/data-lock';
import type { BatchJobSummary } from '../shared/batch';
import { englishMessage, invalidInput, type PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';

/**
 * A job another process runs (running, paused or stopping), as `batch resume` and `batch list` say it: which
 * process (pid, computer), since when and where its lock is — the words the core uses when it refuses to run it twice.
 */
export function beingRunRefusal(job: BatchJobSummary): PrivacyDeskError {
  const { batchId, holder } = job;
  if (!holder) {
    // Its holder took the lock a moment ago and has not recorded which process it is yet.
    return invalidInput(msg('batch.runLockBusy', { job: batchId, seconds: DATA_LOCK_TIMINGS.STALE_MS / 1000 }));
  }
  const by = englishMessage(holder.text);
  if (job.state === 'paused') return invalidInput(`Batch ${batchId} is paused by ${by}: resume it there, or cancel it there and then resume it here. Nothing was sent.`);
  if (job.state === 'stopping') return invalidInput(`Batch ${batchId} is stopping: it was cancelled in ${by}, and its items in flight are finishing. Resume it here once "privacy-desk batch list" says it is unfinished. Nothing was sent.`);
  return invalidInput(beingRunText(batchId, holder));
}

/** One line of `batch list` for a job another process runs. */
export function holderNote(job: BatchJobSummary): string | undefined {
  return job.holder && `Batch ${job.batchId} is ${job.state}, run by ${englishMessage(job.holder.text)}.`;
}

/** The holder as --json prints it: the facts, and the English words. */
export function holderJson(job: BatchJobSummary) {
  const { holder } = job;
  if (!holder) return { batchId: job.batchId, state: job.state };
  const { text, ...facts } = holder;
  return { batchId: job.batchId, state: job.state, holder: facts, message: englishMessage(text) };
}
