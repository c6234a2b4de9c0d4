/**
 * Sending a finished job's failed items again (batch retry) as new attempts of the same job.
 *
 * How the journal records it: each failed item to send again gets a 'retry' event, all of them in one
 * durable write under the job's run lock BEFORE anything is sent (Journal.recordRetry). readJobState turns
 * a failed item with a 'retry' event back to unfinished, so the run that follows is the resume path itself
 * (same gate, same job id on every audit entry, a summary entry with the job's counts), and a crash during
 * it leaves those items unfinished for `batch resume`. The failure stays in the journal before the 'retry';
 * results.ts shows what the new attempts record.
 *
 * The check first (the default): a failed item may have been erased by an attempt whose answer was unclear,
 * or by someone else since. A walk of the users list (read-only, the same walk as the check before a start)
 * says which failed uids are still on the service: only those are sent. The others get their 'retry' and
 * then their outcome at once, never sent: 'done-before-interruption' when an earlier attempt may have
 * reached the service (and the check before the start did not miss the uid), else 'not-found' — as a 404
 * would have them end.
 */
import { randomUUID } from 'node:crypto';
import { batchConfirmationPhrase, matchesBatchConfirmation, PREVIEW_ENDS } from '../../shared/batch';
import { RETRY_CHECK_SAMPLE, type BatchRetryCheck } from '../../shared/batch-retry';
import { invalidInput, PrivacyDeskError } from '../../shared/errors';
import { msg, wordInEnglish } from '../../shared/messages';
import type { Profile } from '../../shared/profile';
import type { UserRecord } from '../../shared/users';
import type { GatedConnection } from '../service/erasure-gate';
import type { BatchRun, BatchRunControl, WalkControl } from './batch-types';
import type { BatchJobStore } from './batch-job-store';
import type { Journal } from './journal';
import type { JobState } from './job-state';

export interface FailedRetriesDeps {
  jobs: BatchJobStore;
  getProfile(profileId: string): Promise<Profile>;
  connectionFor(profileId: string): Promise<GatedConnection>;
  walkUsers(profileId: string, walk: WalkControl): Promise<{ users: UserRecord[] }>;
  /** desk.batch's run of a job's unfinished items (the resume path). */
  run(journal: Journal, state: JobState, concurrency: number, control: BatchRunControl): Promise<BatchRun>;
}

export interface RetryOptions {
  concurrency: number;
  /** What the operator typed: batchConfirmationPhrase(action, items sent); not needed when nothing is sent. */
  confirmation: string;
  /** The check whose findings the operator saw; without it every failed item is sent (the CLI's --no-check). */
  checkId?: string;
}

type GoneOutcome = 'not-found' | 'done-before-interruption';

/** What a check found, kept in this process until the retry it was made for uses it. */
interface KeptCheck {
  batchId: string;
  /** Every failed item when checked, ascending: the retry refuses a job whose failed items changed since. */
  failed: number[];
  stillThere: number[];
  gone: Array<{ item: number; outcome: GoneOutcome }>;
}

/** Checks kept at once (a window may check a job, then leave it): the oldest goes first. */
const MAX_KEPT_CHECKS = 8;

export function createFailedRetries(deps: FailedRetriesDeps) {
  const { jobs } = deps;
  const kept = new Map<string, KeptCheck>();

  /** The job as a retry needs it: readable, every item recorded, run by nobody, finished, with failed items. */
  async function finishedWithFailures(batchId: string): Promise<JobState> {
    const state = await jobs.readJobState(batchId);
    if (state.corruptLines.length > 0) throw jobs.journalDamage(batchId, state.corruptLines);
    if (!state.itemsComplete) throw invalidInput(msg('batch.notRecorded', { job: batchId }));
    const runner = await jobs.jobRunner(batchId);
    if (runner.state === 'running' || runner.state === 'paused' || runner.state === 'stopping') throw invalidInput(msg('batch.retry.beingRun', { job: batchId }));
    if (state.unfinished > 0) throw invalidInput(msg('batch.retry.unfinished', { job: batchId, count: state.unfinished }));
    if (state.counts.failed === 0) throw invalidInput(msg('batch.retry.noneFailed', { job: batchId }));
    return state;
  }

  /** The profile the job was confirmed for, still pointing at the same service (as resume requires). */
  async function jobProfile(state: JobState): Promise<Profile> {
    const { plan } = state;
    const profile = await deps.getProfile(plan.profileId);
    if (profile.baseUrl !== plan.baseUrl) {
      throw invalidInput(msg('batch.otherAddress', { job: plan.jobId, confirmed: plan.baseUrl, profile: profile.name, now: profile.baseUrl }));
    }
    return profile;
  }

  function failedItems(state: JobState): number[] {
    const failed: number[] = [];
    for (let item = 0; item < state.plan.total; item++) if (state.stateOf(item) === 'failed') failed.push(item);
    return failed;
  }

  async function check(batchId: string, walk: WalkControl = {}): Promise<BatchRetryCheck> {
    const state = await finishedWithFailures(batchId);
    const profile = await jobProfile(state);
    const { users } = await deps.walkUsers(profile.id, walk);
    const known = new Set<string>();
    for (const user of users) if (user.uid) known.add(user.uid);
    const found: KeptCheck = { batchId, failed: [], stillThere: [], gone: [] };
    const sample: string[] = [];
    const firstUids: string[] = [];
    const lastUids: string[] = [];
    for await (const item of jobs.readItems(batchId)) {
      if (state.stateOf(item.index) !== 'failed') continue;
      found.failed.push(item.index);
      if (known.has(item.uid)) {
        found.stillThere.push(item.index);
        if (firstUids.length < PREVIEW_ENDS) firstUids.push(item.uid);
        else if (lastUids.push(item.uid) > PREVIEW_ENDS) lastUids.shift();
        continue;
      }
      // As a 404 would end it: "done before" only when an attempt may have erased it and the check before the start saw it.
      const doneBefore = state.mayHaveReached(item.index) && !item.missingAtCheck;
      found.gone.push({ item: item.index, outcome: doneBefore ? 'done-before-interruption' : 'not-found' });
      if (sample.length < RETRY_CHECK_SAMPLE) sample.push(item.uid);
    }
    const checkId = randomUUID();
    kept.set(checkId, found);
    while (kept.size > MAX_KEPT_CHECKS) kept.delete(kept.keys().next().value as string);
    const doneBeforeInterruption = found.gone.filter((gone) => gone.outcome === 'done-before-interruption').length;
    return {
      checkId,
      batchId,
      users: users.length,
      failed: found.failed.length,
      toSend: found.stillThere.length,
      firstUids,
      lastUids,
      gone: { count: found.gone.length, doneBeforeInterruption, notFound: found.gone.length - doneBeforeInterruption, sample },
    };
  }

  async function retry(batchId: string, options: RetryOptions, control: BatchRunControl = {}): Promise<BatchRun> {
    const before = await finishedWithFailures(batchId);
    const checked = options.checkId === undefined ? undefined : kept.get(options.checkId);
    if (options.checkId !== undefined && checked?.batchId !== batchId) throw invalidInput(msg('batch.retry.checkGone', { job: batchId }));
    const toSend = checked ? checked.stillThere.length : before.counts.failed;
    const { action } = before.plan;
    if (toSend > 0 && !matchesBatchConfirmation(options.confirmation, action, toSend)) {
      throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('batch.retry.phraseMismatch', { phrase: batchConfirmationPhrase(action, toSend) }) });
    }
    await deps.connectionFor((await jobProfile(before)).id);
    const journal = await jobs.resumeJob(batchId);
    try {
      // Read again under the run lock: what was checked and confirmed must still be the job's failed items.
      const state = await jobs.readJobState(batchId);
      const failed = failedItems(state);
      const unchanged = state.unfinished === 0 && (checked ? sameItems(failed, checked.failed) : failed.length === toSend);
      if (!unchanged) throw invalidInput(msg('batch.retry.changed', { job: batchId }));
      if (options.checkId !== undefined) kept.delete(options.checkId);
      const gone = checked?.gone ?? [];
      const retries = checked
        ? [...checked.stillThere.map((item) => ({ item, recheck: false })), ...gone.map(({ item }) => ({ item, recheck: false }))]
        : failed.map((item) => ({ item, recheck: state.mayHaveReached(item) }));
      await journal.recordRetry(retries.sort((a, b) => a.item - b.item));
      for (const { item, outcome } of gone) {
        const reasonText = msg(outcome === 'done-before-interruption' ? 'batch.reason.goneAtRetryDoneBefore' : 'batch.reason.goneAtRetry');
        await journal.recordOutcome({ item, outcome, reason: wordInEnglish(reasonText), reasonText });
      }
      await journal.flush();
      return await deps.run(journal, await jobs.readJobState(batchId), options.concurrency, control);
    } catch (error) {
      await journal.close().catch(() => undefined);
      throw error;
    }
  }

  return { check, retry };
}

function sameItems(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}
