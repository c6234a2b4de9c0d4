import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { PrivacyDeskError, errorText, isPrivacyDeskError, type ErrorCode } from '../../shared/errors';
import type { BatchCounts, BatchProgress, BatchRunResult } from '../../shared/batch';
import type { ErasureAction } from '../../shared/users';
import type { BatchAttempt, BatchGate, BatchSendResult } from '../service/erasure-gate';
import { isoWithOffset } from '../local-time';
import { retryDelayMs } from '../retry';
import type { BatchRunControl } from './batch-types';
import type { ItemOutcome } from './job-files';
import type { Journal, OutcomeRecord } from './journal';
import { abortableSleep, createSendPacer } from './send-pacer';
import { createWireSlots } from './wire-slots';
import { durationText, msg, wordInEnglish } from '../../shared/messages';
import type { MessageText } from '../../shared/message-text';

export interface RunItem {
  item: number;
  uid: string;
  reference?: string;
  /** An earlier attempt may have reached the service: a 404 now means "done before the interruption". */
  recheck: boolean;
  /** The check before the confirmation did not find this uid: a 404 means "not found", however many attempts it took. */
  missingAtCheck?: boolean;
  /** The uid as pasted, when the operator chose to send its trimmed form: recorded with the item's audit entries. */
  pastedUid?: string;
}

export interface RunBatchOptions {
  journal: Journal;
  /** The job's operation, for the summary the audit trail gets at the end of the run. */
  action: ErasureAction;
  gate: BatchGate;
  /** The unfinished items, in order. */
  items: AsyncIterable<RunItem>;
  /** Counts when the run starts (a resumed job has finished items already). */
  counts: BatchCounts;
  concurrency: number;
  control?: BatchRunControl;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /**
   * How long an item whose attempts were not sent or got no clear answer goes on being tried (with backoff), its
   * paused time not counted; then it is failed with the last reason. Default DEFAULT_RETRY_FOR_MS (10 minutes).
   */
  retryForMs?: number;
  /** 429 answers one item may meet before it is failed. Default 100. */
  maxRateLimited?: number;
}

/** Failures that concern every item (credentials, scope, the audit trail…): the run stops, the items stay unfinished. */
const STOPS_THE_RUN: ReadonlySet<ErrorCode> = new Set([
  'INVALID_CREDENTIALS', 'INSUFFICIENT_SCOPE', 'UNAUTHORIZED', 'APPLICATION_NOT_FOUND', 'TLS', 'KEYCHAIN_UNAVAILABLE',
  'PROFILE_NOT_FOUND', 'PROFILE_STORE_CORRUPT', 'AUDIT_WRITE_FAILED', 'TOKEN_INVALID',
]);

const PROGRESS_EVERY_MS = 250;
/**
 * A not-sent attempt reached nothing (connection refused, no token could be had): retrying it is always
 * safe. When the service has answered nothing at all for this long, it is out of reach: the run stops
 * (resumable) instead of spending every item's retries on it.
 */
const UNREACHABLE_AFTER_MS = 30_000;
/** Not-sent failures that can pass (the network, the token endpoint); any other not-sent fails the item at once. */
const PASSING_NOT_SENT: ReadonlySet<ErrorCode> = new Set(['NETWORK', 'TIMEOUT', 'SERVER_ERROR', 'UNEXPECTED_RESPONSE', 'INTERNAL']);
const RATE_WINDOW_MS = 10_000;
/** An item is tried this long before it is failed: long enough to outlast a service's bad spell, a deploy, a failover. */
export const DEFAULT_RETRY_FOR_MS = 10 * 60_000;
/** The longest Retry-After a run waits out (its senders hold, then go on); a longer one stops the run, resumable. */
export const LONGEST_RATE_LIMIT_WAIT_MS = 10 * 60_000;

/**
 * Runs a batch job's unfinished items: at most `concurrency` requests on the wire, paced by one
 * pacer (a 429 slows everyone), each item through the gate; the journal records its start (durably,
 * with its audit entry, before it is sent) and its outcome. Retries: not-sent items are sent again
 * after a backoff; unknown ones too (the same act: it can only erase what was confirmed, and a
 * 404 then means it was done before the interruption); refused ones fail with the service's
 * reason; an item tried for its whole time ends 'failed'. A cancel lets items in flight (recorded
 * or on the wire) finish and sends nothing more; the job stays resumable.
 */
export async function runBatch(options: RunBatchOptions): Promise<BatchRunResult> {
  const { journal, gate, control = {} } = options;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const retryForMs = options.retryForMs ?? DEFAULT_RETRY_FOR_MS;
  const maxRateLimited = options.maxRateLimited ?? 100;
  const counts: BatchCounts = { ...options.counts };
  const total = counts.done + counts.doneBeforeInterruption + counts.notFound + counts.failed + counts.unfinished;
  const pacer = createSendPacer({ now, sleep });
  const concurrency = Math.max(1, options.concurrency);
  const wire = createWireSlots(concurrency);
  const stop = new AbortController();
  const signal = control.signal ? AbortSignal.any([control.signal, stop.signal]) : stop.signal;
  // Every sender may wait on it at once (a hold, its slot, a backoff), each with its own listener: not a leak.
  setMaxListeners(8 * concurrency + 10, signal);
  let fatal: unknown = null;
  let inFlight = 0;
  let lastAnswerAt = now();
  /** When items finished within the rate window: trimmed as items finish, so it holds a window's worth whoever listens. */
  const finishedAt: number[] = [];
  const forgetFinishedBefore = (from: number) => {
    while (finishedAt.length > 0 && (finishedAt[0] as number) < from) finishedAt.shift();
  };
  const startedAt = now();
  let lastProgressAt = -Infinity;

  const halt = (error: unknown) => {
    fatal ??= error;
    stop.abort();
  };
  const onLockLost = () => halt(journal.signal.reason);
  if (journal.signal.aborted) onLockLost();
  journal.signal.addEventListener('abort', onLockLost, { once: true });
  // Cancelled, or stopped by an error: every other process reads it stopping while the items in flight finish.
  const onStopping = () => journal.setStopping();
  if (signal.aborted) onStopping();
  else signal.addEventListener('abort', onStopping, { once: true });
  /** When the operator paused the run: said while it stays paused. */
  let pausedAt: number | null = null;
  const offPause = control.pause?.onChange(() => {
    pausedAt = control.pause?.paused ? now() : null;
    // Every other process (the CLI's batch list, another window) reads the same state as this run's own report.
    journal.setPaused(control.pause?.paused === true);
    report(true);
  });

  function report(force = false) {
    if (!control.onProgress) return;
    const at = now();
    if (!force && at - lastProgressAt < PROGRESS_EVERY_MS) return;
    lastProgressAt = at;
    forgetFinishedBefore(at - RATE_WINDOW_MS);
    const windowMs = Math.min(RATE_WINDOW_MS, Math.max(1, at - startedAt));
    const ratePerSecond = Math.round((finishedAt.length / windowMs) * 1000 * 10) / 10;
    const waitSeconds = pacer.holdSeconds();
    const state: BatchProgress['state'] = signal.aborted ? 'stopping' : control.pause?.paused ? 'paused' : waitSeconds > 0 ? 'waiting' : 'running';
    const progress: BatchProgress = { batchId: journal.jobId, total, counts: { ...counts }, inFlight, ratePerSecond, state };
    if (ratePerSecond > 0) progress.secondsLeft = Math.ceil(counts.unfinished / ratePerSecond);
    if (state === 'waiting') progress.waitSeconds = waitSeconds;
    if (state === 'paused' && pausedAt !== null) progress.pausedSince = new Date(pausedAt).toISOString();
    control.onProgress(progress);
  }

  // Group commit: items asking to start while a write is on its way start together in the next write.
  let waiting: { run: RunItem; actId: string; resolve: (attempt: BatchAttempt) => void; reject: (error: unknown) => void }[] = [];
  let writing = false;
  const admit = (run: RunItem, actId: string) =>
    new Promise<BatchAttempt>((resolve, reject) => {
      waiting.push({ run, actId, resolve, reject });
      if (!writing) void writeGroups();
    });
  async function writeGroups() {
    writing = true;
    await new Promise((resolve) => setImmediate(resolve)); // let the other senders join the first group
    while (waiting.length > 0) {
      const group = waiting;
      waiting = [];
      const items = group.map(({ run }) => run.item);
      try {
        await journal.recordStarted(items);
      } catch (error) {
        for (const { reject } of group) reject(error);
        continue;
      }
      try {
        const attempts = await gate.admit(group.map(({ run, actId }) => ({ uid: run.uid, actId, ...(run.reference ? { reference: run.reference } : {}), ...(run.pastedUid !== undefined ? { pastedUid: run.pastedUid } : {}) })));
        group.forEach(({ resolve }, index) => resolve(attempts[index] as BatchAttempt));
      } catch (error) {
        // Started in the journal but never sent: say so, with the gate's own reason, so a resume sends them afresh.
        const reasonText = isPrivacyDeskError(error) ? errorText(error) : msg('gate.notRecordedNotSent', { problem: msg('audit.couldNotWrite') });
        for (const item of items) await journal.recordOutcome({ item, outcome: 'not-sent-retry', reason: wordInEnglish(reasonText), reasonText }).catch(() => undefined);
        for (const { reject } of group) reject(error);
      }
    }
    writing = false;
  }

  /** `reason`: why, as a message (the window words it in its language; the journal also keeps it in English). */
  async function record(run: RunItem, outcome: ItemOutcome, result: BatchSendResult | undefined, reason?: MessageText) {
    const entry: OutcomeRecord = { item: run.item, outcome };
    if (result?.status !== undefined) entry.status = result.status;
    if (result?.requestId !== undefined) entry.requestId = result.requestId;
    if (reason !== undefined) {
      entry.reason = wordInEnglish(reason);
      entry.reasonText = reason;
    }
    await journal.recordOutcome(entry);
    if (outcome === 'not-sent-retry' || outcome === 'unknown-retry') return report();
    counts.unfinished -= 1;
    if (outcome === 'done') counts.done += 1;
    else if (outcome === 'done-before-interruption') counts.doneBeforeInterruption += 1;
    else if (outcome === 'not-found') counts.notFound += 1;
    else counts.failed += 1;
    finishedAt.push(now());
    forgetFinishedBefore(now() - RATE_WINDOW_MS);
    // Paused or stopping, nothing new starts: each item in flight that ends is reported, so the figures left on screen are the final ones.
    report(signal.aborted || control.pause?.paused === true);
  }

  async function processItem(run: RunItem) {
    let mayHaveReached = run.recheck;
    const actId = randomUUID();
    let attempts = 0;
    let notSentAttempts = 0;
    let rateLimited = 0;
    let unauthorized = 0;
    // The item's own clock: it runs from its first attempt, and stops while the operator has the run paused.
    let firstAttemptAt: number | null = null;
    let pausedMs = 0;
    const tryingForMs = () => (firstAttemptAt === null ? 0 : now() - firstAttemptAt - pausedMs);
    for (;;) {
      const beforePause = now();
      await control.pause?.whileRunning(signal);
      pausedMs += now() - beforePause;
      if (signal.aborted) return;
      const sentAt = await pacer.turn(signal);
      if (signal.aborted) return;
      firstAttemptAt ??= now();
      // Paused while it waited for its turn (a Retry-After): it waits for Resume rather than going out now.
      if (control.pause?.paused) continue;
      // On its way from here, with no wait since the pause was last checked: its records (journal, audit trail),
      // then its request. So "paused, nothing in flight" means that nothing more is sent until Resume.
      inFlight += 1;
      report();
      let result: BatchSendResult;
      try {
        const attempt = await admit(run, actId);
        // Recorded: it may go as soon as a wire slot is free (admitted, it is in flight: a cancel or a pause lets it go out).
        await wire.take();
        try {
          await pacer.slot(signal);
          // Paused or stopped while it waited: it does not go out now, and its records say it never left.
          result = signal.aborted || control.pause?.paused ? attempt.withdraw(withdrawn()) : await attempt.send();
        } finally {
          wire.give();
        }
      } finally {
        inFlight -= 1;
      }
      const error = result.error;
      if (error?.code === 'CANCELLED') {
        await record(run, 'not-sent-retry', result, errorText(error));
        report(true); // one fewer in flight: the screens say when nothing is
        continue; // back to the pause (it waits for Resume) or the stop (it ends)
      }
      if (result.status !== undefined || result.outcome !== 'not-sent') lastAnswerAt = now();
      // Any answer but a 429 passed the service's limiter: the pacer learns the rate it accepts from them.
      if (result.status !== undefined && result.status !== 429) pacer.answered();
      if (!error || result.outcome === 'done') return record(run, 'done', result);
      if (error.code === 'NOT_FOUND') {
        if (mayHaveReached && !run.missingAtCheck) return record(run, 'done-before-interruption', result, msg('batch.reason.doneBefore'));
        return record(run, 'not-found', result);
      }
      if (error.code === 'RATE_LIMITED') {
        if (error.retryAfterSeconds !== undefined && error.retryAfterSeconds * 1000 > LONGEST_RATE_LIMIT_WAIT_MS) {
          // Waiting that long would keep the run "waiting" for hours an item: it stops, resumable, and says until when.
          await record(run, 'not-sent-retry', result, errorText(error));
          return halt(waitTooLong(error, error.retryAfterSeconds, now()));
        }
        pacer.rateLimited(sentAt, error.retryAfterSeconds);
        rateLimited += 1;
        if (rateLimited > maxRateLimited) return record(run, 'failed', result, msg('batch.reason.rateLimited', { count: rateLimited, last: errorText(error) }));
        await record(run, 'not-sent-retry', result);
        report(true);
        continue;
      }
      // A token that expired on its way (clocks differ) is refused once; the token was dropped, so one more try gets a new one.
      if (error.code === 'UNAUTHORIZED' && unauthorized++ === 0) {
        await record(run, 'not-sent-retry', result, errorText(error));
        continue;
      }
      if (STOPS_THE_RUN.has(error.code)) {
        await record(run, error.outcome === 'unknown' ? 'unknown-retry' : 'not-sent-retry', result, errorText(error));
        return halt(error);
      }
      if (error.outcome === 'refused' || error.outcome === 'done') return record(run, 'failed', result, errorText(error));
      if (error.outcome === 'not-sent') {
        if (!PASSING_NOT_SENT.has(error.code)) return record(run, 'failed', result, errorText(error));
        if (now() - lastAnswerAt >= UNREACHABLE_AFTER_MS) {
          await record(run, mayHaveReached ? 'unknown-retry' : 'not-sent-retry', result, errorText(error));
          const silentFor = Math.round((now() - lastAnswerAt) / 1000);
          return halt(new PrivacyDeskError({ code: error.code, outcome: 'not-sent', text: msg('batch.silentService', { seconds: silentFor, last: errorText(error) }), ...(error.quote ? { quote: error.quote } : {}) }, { cause: error }));
        }
        notSentAttempts += 1;
      } else {
        mayHaveReached = true;
        attempts += 1;
      }
      const leftMs = retryForMs - tryingForMs();
      if (leftMs <= 0) {
        // Said once: the last attempt's own message may already send the operator to check the user.
        const last = errorText(error);
        const maybe = mayHaveReached && !/check the user/i.test(wordInEnglish(last));
        const params = { count: attempts + notSentAttempts, duration: durationText(tryingForMs() / 1000), last };
        return record(run, 'failed', result, msg(maybe ? 'batch.reason.triedMayHaveReached' : 'batch.reason.tried', params));
      }
      await record(run, error.outcome === 'unknown' ? 'unknown-retry' : 'not-sent-retry', result, errorText(error));
      // The backoff never runs past the item's time: its last attempt goes out as that time ends.
      await sleep(Math.min(leftMs, retryDelayMs(attempts + notSentAttempts - 1, undefined, options.random)), signal);
    }
  }

  const source = options.items[Symbol.asyncIterator]();
  async function sender() {
    while (!signal.aborted) {
      const next = await source.next();
      if (next.done) return;
      try {
        await processItem(next.value);
      } catch (error) {
        halt(error);
      }
    }
  }

  report(true);
  // Twice as many senders as requests on the wire: while `concurrency` requests are out, as many more items have their
  // records written (one group, one fsync), so a request that ends is followed at once by one whose records are on disk.
  await Promise.all(Array.from({ length: 2 * concurrency }, sender));
  await source.return?.(undefined);
  const ended = fatal !== null ? 'stopped' : counts.unfinished === 0 ? 'finished' : 'cancelled';
  try {
    await gate.flush({ operation: options.action, total, ...counts, ended });
  } catch (error) {
    halt(error);
  }
  offPause?.();
  signal.removeEventListener('abort', onStopping);
  journal.signal.removeEventListener('abort', onLockLost);
  try {
    await journal.close();
  } catch (error) {
    halt(error);
  }
  report(true);
  if (fatal !== null) throw stopped(journal.jobId, counts, fatal);
  return { batchId: journal.jobId, total, counts, state: counts.unfinished === 0 ? 'finished' : 'cancelled' };
}

/** An item recorded, then held back: the run was paused or stopped before its request left. */
function withdrawn(): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'CANCELLED', outcome: 'not-sent', text: msg('batch.withdrawn') });
}

function stopped(jobId: string, counts: BatchCounts, cause: unknown): PrivacyDeskError {
  const known = isPrivacyDeskError(cause);
  const params = { job: jobId, why: known ? errorText(cause) : msg('batch.unexpected'), count: counts.unfinished };
  return new PrivacyDeskError(
    {
      code: known ? cause.code : 'INTERNAL',
      outcome: 'not-sent',
      text: known && cause.code === 'RATE_LIMITED' ? msg('batch.stoppedWait', params) : msg('batch.stopped', params),
      ...(known && cause.quote ? { quote: cause.quote } : {}),
      ...(known && cause.retryAfterSeconds !== undefined ? { retryAfterSeconds: cause.retryAfterSeconds } : {}),
    },
    { cause },
  );
}

/** A Retry-After past what a run waits out: the service's own wait, and until when, in the operator's local time. */
function waitTooLong(cause: PrivacyDeskError, seconds: number, nowMs: number): PrivacyDeskError {
  const until = nowMs + seconds * 1000;
  const when = Number.isFinite(until) && Math.abs(until) <= 8.64e15 ? isoWithOffset(new Date(until)).replace(/\.\d{3}/, '') : msg('batch.farDate');
  return new PrivacyDeskError(
    {
      code: 'RATE_LIMITED',
      outcome: 'not-sent',
      retryAfterSeconds: seconds,
      text: msg('batch.waitTooLong', { wait: durationText(seconds), until: when, minutes: LONGEST_RATE_LIMIT_WAIT_MS / 60_000 }),
    },
    { cause },
  );
}

