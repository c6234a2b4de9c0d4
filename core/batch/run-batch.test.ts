import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivacyDeskError, type ErrorCode } from '../../shared/errors';
import type { BatchProgress } from '../../shared/batch';
import type { BatchGate, BatchOrder, BatchSendResult } from '../service/erasure-gate';
import { createJob, type Journal } from './journal';
import { readJobState } from './job-state';
import { readResults } from './results';
import { createPauseSwitch } from './pause-switch';
import { runBatch, type RunBatchOptions, type RunItem } from './run-batch';

/** A gate whose answers the test scripts per uid; it counts what was admitted and sent. */
function scriptedGate(answer: (uid: string, attempt: number) => BatchSendResult | Promise<BatchSendResult>) {
  const sent: string[] = [];
  /** Admitted (recorded), then held back: the run was paused or stopped before it left. */
  const withdrawn: string[] = [];
  const actIds = new Map<string, Set<string | undefined>>();
  const admittedGroups: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const attempts = new Map<string, number>();
  const gate: BatchGate = {
    async admit(orders: readonly BatchOrder[]) {
      admittedGroups.push(orders.length);
      for (const order of orders) actIds.set(order.uid, (actIds.get(order.uid) ?? new Set()).add(order.actId));
      return orders.map((order) => ({
        withdraw: (reason) => {
          withdrawn.push(order.uid);
          return { outcome: 'not-sent' as const, error: reason };
        },
        async send() {
          sent.push(order.uid);
          const attempt = (attempts.get(order.uid) ?? 0) + 1;
          attempts.set(order.uid, attempt);
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            await new Promise((resolve) => setImmediate(resolve));
            return await answer(order.uid, attempt);
          } finally {
            inFlight -= 1;
          }
        },
      }));
    },
    async flush() {},
  };
  return { gate, sent, withdrawn, actIds, admittedGroups, maxInFlight: () => maxInFlight };
}

const done = (): BatchSendResult => ({ outcome: 'done', status: 200 });
const failure = (code: ErrorCode, outcome: PrivacyDeskError['outcome'], extra: { status?: number; retryAfterSeconds?: number } = {}): BatchSendResult => ({
  outcome,
  ...(extra.status !== undefined ? { status: extra.status } : {}),
  error: new PrivacyDeskError({ code, outcome, message: `${code} happened.`, ...extra }),
});

describe('runBatch', () => {
  let dataDir: string;
  let clock: number;
  const waits: number[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'run-batch-'));
    clock = 1_000_000;
    waits.length = 0;
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  async function job(uids: string[]): Promise<Journal> {
    const journal = await createJob(dataDir, { action: 'delete', profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total: uids.length, source: 'test' });
    await journal.appendItems(uids.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    return journal;
  }

  async function* itemsOf(uids: string[], recheck = false): AsyncGenerator<RunItem> {
    for (const [item, uid] of uids.entries()) yield { item, uid, recheck };
  }

  function run(journal: Journal, gate: BatchGate, uids: string[], extra: Partial<RunBatchOptions> = {}) {
    return runBatch({
      journal,
      action: 'delete',
      gate,
      items: itemsOf(uids),
      counts: { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: uids.length },
      concurrency: 4,
      now: () => clock,
      // Virtual time: a wait moves the clock instead of sleeping.
      sleep: async (ms) => {
        waits.push(ms);
        clock += ms;
      },
      random: () => 0.5,
      ...extra,
    });
  }

  async function readRows(jobId: string) {
    const rows = [];
    for await (const row of readResults(dataDir, jobId)) rows.push(row);
    return rows;
  }

  const uids = (n: number) => Array.from({ length: n }, (_, i) => `user-${i}`);

  it('sends every item once, never more than the concurrency at a time, in fewer durable writes than items', async () => {
    const list = uids(40);
    const scripted = scriptedGate(done);
    const journal = await job(list);
    const result = await run(journal, scripted.gate, list, { concurrency: 4 });
    expect(result).toMatchObject({ state: 'finished', counts: { done: 40, unfinished: 0 } });
    expect([...scripted.sent].sort()).toEqual([...list].sort());
    expect(scripted.maxInFlight()).toBeLessThanOrEqual(4);
    expect(scripted.maxInFlight()).toBeGreaterThan(1);
    expect(scripted.admittedGroups.length).toBeLessThan(40);
    const state = await readJobState(dataDir, journal.jobId);
    expect(state.counts.done).toBe(40);
  });

  it('a 404 on a first try is "not found"; after an unknown attempt it is "done before the interruption"', async () => {
    const list = ['gone', 'flaky'];
    const scripted = scriptedGate((uid, attempt) => {
      if (uid === 'gone') return failure('NOT_FOUND', 'refused', { status: 404 });
      return attempt === 1 ? failure('SERVER_ERROR', 'unknown', { status: 502 }) : failure('NOT_FOUND', 'refused', { status: 404 });
    });
    const result = await run(await job(list), scripted.gate, list);
    expect(result.counts).toEqual({ done: 0, doneBeforeInterruption: 1, notFound: 1, failed: 0, unfinished: 0 });
    expect(scripted.sent.filter((uid) => uid === 'flaky')).toHaveLength(2);
    // Both attempts are steps of one act in the audit trail.
    expect(scripted.actIds.get('flaky')?.size).toBe(1);
  });

  it('a uid the check did not find stays "not found" even when its 404 came after an unknown attempt', async () => {
    const list = ['typo'];
    const scripted = scriptedGate((_uid, attempt) => (attempt === 1 ? failure('SERVER_ERROR', 'unknown', { status: 502 }) : failure('NOT_FOUND', 'refused', { status: 404 })));
    const result = await run(await job(list), scripted.gate, list, { items: (async function* () { yield { item: 0, uid: 'typo', recheck: false, missingAtCheck: true }; })() });
    expect(result.counts).toMatchObject({ notFound: 1, doneBeforeInterruption: 0 });
  });

  it('retries unknown items with backoff for the item\'s time, then fails them saying how long and how often', async () => {
    const list = ['always-502'];
    const scripted = scriptedGate(() => failure('SERVER_ERROR', 'unknown', { status: 502 }));
    const journal = await job(list);
    const startedAt = clock;
    const result = await run(journal, scripted.gate, list, { retryForMs: 3_000 });
    expect(result.counts).toMatchObject({ failed: 1, unfinished: 0 });
    // 375 + 750 + 1,500 ms of backoff (jitter at its middle), then the last one cut to the 375 ms left: five attempts in 3 s.
    expect(scripted.sent).toHaveLength(5);
    expect(clock - startedAt).toBe(3_000);
    const [row] = await readRows(journal.jobId);
    expect(row?.reason).toMatch(/^Tried 5 times over 3 s; the last attempt: The service failed while handling the request\./);
    // Sent to check the user once, not twice.
    expect(row?.reason?.match(/check the user/g)).toHaveLength(1);
  });

  it('at a 50 % error rate every item of a 10-item batch finishes: an item is tried for 10 minutes, not 5 times', async () => {
    const list = uids(10);
    let seed = 7;
    // A fixed pseudo-random sequence: the same half of the answers fail on every run of the test.
    const coin = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) < 0.5;
    const scripted = scriptedGate(() => (coin() ? failure('SERVER_ERROR', 'unknown', { status: 503 }) : done()));
    const result = await run(await job(list), scripted.gate, list);
    expect(result.counts).toMatchObject({ done: 10, failed: 0, unfinished: 0 });
    // Some items needed more than 5 attempts: the old count would have failed them.
    const attempts = list.map((uid) => scripted.sent.filter((sent) => sent === uid).length);
    expect(Math.max(...attempts)).toBeGreaterThan(5);
  });

  it('stops the run, resumable, when the service answers nothing at all for 30 s, instead of failing every item', async () => {
    const list = uids(50);
    const scripted = scriptedGate(() => failure('NETWORK', 'not-sent'));
    const journal = await job(list);
    await expect(run(journal, scripted.gate, list)).rejects.toMatchObject({ code: 'NETWORK', message: expect.stringMatching(/answered nothing for 3\d s/) });
    const state = await readJobState(dataDir, journal.jobId);
    expect(state.counts.failed).toBe(0);
    expect(state.unfinished).toBe(50);
    expect(scripted.sent.length).toBeLessThan(50);
  });

  it('fails at once an item refused before sending for a reason no retry changes', async () => {
    const list = ['bad'];
    const scripted = scriptedGate(() => failure('INVALID_INPUT', 'not-sent'));
    const result = await run(await job(list), scripted.gate, list);
    expect(result.counts.failed).toBe(1);
    expect(scripted.sent).toHaveLength(1);
  });

  it('a refusal (4xx) fails the item at once, without a retry', async () => {
    const list = ['refused'];
    const scripted = scriptedGate(() => failure('INVALID_INPUT', 'refused', { status: 422 }));
    const result = await run(await job(list), scripted.gate, list);
    expect(result.counts.failed).toBe(1);
    expect(scripted.sent).toHaveLength(1);
  });

  it('a 429 holds every sender for Retry-After, not only the one that met it', async () => {
    const list = uids(8);
    let limited = false;
    const sentAt: number[] = [];
    const scripted = scriptedGate((uid) => {
      sentAt.push(clock);
      if (uid === 'user-0' && !limited) {
        limited = true;
        return failure('RATE_LIMITED', 'refused', { status: 429, retryAfterSeconds: 30 });
      }
      return done();
    });
    const result = await run(await job(list), scripted.gate, list, { concurrency: 1 });
    expect(result.counts.done).toBe(8);
    expect(waits.some((ms) => ms >= 30_000)).toBe(true);
    // Everything after the 429 left at least 30 s after it.
    expect(sentAt.slice(1).every((at) => at >= sentAt[0]! + 30_000)).toBe(true);
    expect(scripted.sent.filter((uid) => uid === 'user-0')).toHaveLength(2);
  });

  it('a Retry-After past what a run waits out (10 years) stops the run at once, resumable, saying until when', async () => {
    const list = uids(6);
    const tenYears = 10 * 365 * 86_400;
    const scripted = scriptedGate((uid) => (uid === 'user-2' ? failure('RATE_LIMITED', 'refused', { status: 429, retryAfterSeconds: tenYears }) : done()));
    const journal = await job(list);
    const stoppedAt = clock;
    const error = await run(journal, scripted.gate, list, { concurrency: 1 }).then(
      () => undefined,
      (thrown: unknown) => thrown as PrivacyDeskError,
    );
    expect(error).toMatchObject({ code: 'RATE_LIMITED', outcome: 'not-sent', retryAfterSeconds: tenYears });
    const until = new Date(stoppedAt + tenYears * 1000);
    expect(error?.message).toContain('asked to wait 3,650 days, until ');
    expect(error?.message).toContain(`until ${until.getFullYear()}-`);
    expect(error?.message).toContain('After that time, resume the job');
    // No waiting at all: neither the 60 s hold nor a hundred of them for this item.
    expect(waits.filter((ms) => ms >= 1_000)).toEqual([]);
    expect(scripted.sent).toEqual(['user-0', 'user-1', 'user-2']);
    const state = await readJobState(dataDir, journal.jobId);
    expect(state.counts.done).toBe(2);
    expect(state.unfinished).toBe(4);
    expect(state.stateOf(2)).toBe('retry-not-sent');
  });

  it('a Retry-After within the bound is waited out, as before', async () => {
    const list = uids(2);
    let limited = false;
    const scripted = scriptedGate((uid) => {
      if (uid === 'user-0' && !limited) {
        limited = true;
        return failure('RATE_LIMITED', 'refused', { status: 429, retryAfterSeconds: 600 });
      }
      return done();
    });
    const result = await run(await job(list), scripted.gate, list, { concurrency: 1 });
    expect(result.counts.done).toBe(2);
  });

  it('stops the whole run on a failure that concerns every item, and leaves the rest unfinished', async () => {
    const list = uids(20);
    const scripted = scriptedGate(() => failure('INVALID_CREDENTIALS', 'refused', { status: 401 }));
    const journal = await job(list);
    await expect(run(journal, scripted.gate, list, { concurrency: 2 })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS', message: expect.stringContaining('resume the job') });
    expect(scripted.sent.length).toBeLessThanOrEqual(2);
    const state = await readJobState(dataDir, journal.jobId);
    expect(state.unfinished).toBe(20);
  });

  it('a 401 on a token that expired on its way is tried once more; a second one stops the run', async () => {
    const once = scriptedGate((_uid, attempt) => (attempt === 1 ? failure('UNAUTHORIZED', 'refused', { status: 401 }) : done()));
    expect((await run(await job(['a']), once.gate, ['a'])).counts.done).toBe(1);
    const always = scriptedGate(() => failure('UNAUTHORIZED', 'refused', { status: 401 }));
    await expect(run(await job(['b']), always.gate, ['b'])).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(always.sent).toHaveLength(2);
  });

  it('cancel: the items in flight finish, nothing more is sent, the job stays resumable', async () => {
    const list = uids(30);
    const cancel = new AbortController();
    const scripted = scriptedGate((uid) => {
      if (uid === 'user-5') cancel.abort();
      return done();
    });
    const journal = await job(list);
    const result = await run(journal, scripted.gate, list, { concurrency: 2, control: { signal: cancel.signal } });
    expect(result.state).toBe('cancelled');
    const sentCount = scripted.sent.length;
    expect(sentCount).toBeLessThan(10);
    expect(result.counts.done).toBe(sentCount);
    const state = await readJobState(dataDir, journal.jobId);
    expect(state.unfinished).toBe(30 - sentCount);
  });

  it('pause: nothing new is sent while paused; resume goes on', async () => {
    const list = uids(10);
    const pause = createPauseSwitch();
    const states: BatchProgress['state'][] = [];
    let sentWhilePaused = 0;
    const scripted = scriptedGate((uid) => {
      if (pause.paused) sentWhilePaused += 1;
      if (uid === 'user-2') pause.pause();
      return done();
    });
    let sentWhenPaused = -1;
    let sentBeforeResume = -1;
    const sinces = new Set<string | undefined>();
    const onProgress = (p: BatchProgress) => {
      states.push(p.state);
      if (p.state === 'paused') sinces.add(p.pausedSince);
      else expect(p.pausedSince).toBeUndefined();
      if (p.state !== 'paused' || sentWhenPaused >= 0) return;
      sentWhenPaused = scripted.sent.length;
      // The operator looks away for a while (several turns of the event loop), then presses Resume.
      const later = (turns: number) => setImmediate(() => (turns > 0 ? later(turns - 1) : ((sentBeforeResume = scripted.sent.length), pause.resume())));
      later(20);
    };
    const result = await run(await job(list), scripted.gate, list, { concurrency: 1, control: { pause, onProgress } });
    expect(result.counts.done).toBe(10);
    expect(sentWhilePaused).toBe(0);
    expect(states).toContain('paused');
    expect(sentWhenPaused).toBe(3);
    expect(sentBeforeResume).toBe(3);
    // Paused, each report says since when (the moment of the pause), not a rate or a time left to trust.
    expect([...sinces]).toEqual([new Date(clock).toISOString()]);
  });

  it('pause while items are being recorded before their request: they count as in flight, are held back once recorded, and nothing is sent while paused', async () => {
    const list = uids(6);
    const pause = createPauseSwitch();
    const scripted = scriptedGate(done);
    // The first group's records (journal and audit trail) take a while: the operator pauses meanwhile.
    let releaseAdmit: () => void = () => undefined;
    const admitHeld = new Promise<void>((resolve) => (releaseAdmit = resolve));
    let admitting: () => void = () => undefined;
    const admitStarted = new Promise<void>((resolve) => (admitting = resolve));
    const admit = scripted.gate.admit.bind(scripted.gate);
    let groups = 0;
    const gate: BatchGate = {
      ...scripted.gate,
      admit: async (orders) => {
        if (groups++ === 0) {
          admitting();
          await admitHeld;
        }
        return admit(orders);
      },
    };
    const reports: BatchProgress[] = [];
    let sentWhenIdle = -1;
    let sentAtResume = -1;
    const onProgress = (progress: BatchProgress) => {
      reports.push(progress);
      if (progress.state !== 'paused' || progress.inFlight > 0 || sentWhenIdle >= 0) return;
      // Paused, nothing in flight: what the screens then say must stay true until Resume.
      sentWhenIdle = scripted.sent.length;
      const later = (turns: number) => setImmediate(() => (turns > 0 ? later(turns - 1) : ((sentAtResume = scripted.sent.length), pause.resume())));
      later(20);
    };
    const finished = run(await job(list), gate, list, { concurrency: 2, control: { pause, onProgress } });
    await admitStarted;
    pause.pause();
    // Twice the concurrency: while two are on the wire, two more have their records written.
    expect(reports.at(-1)).toMatchObject({ state: 'paused', inFlight: 4 });
    releaseAdmit();
    const result = await finished;
    expect(result.counts.done).toBe(6);
    // Recorded during the pause, none left: each was withdrawn (its records say it was not sent); nothing went until Resume.
    expect(scripted.withdrawn).toHaveLength(4);
    expect(sentWhenIdle).toBe(0);
    expect(sentAtResume).toBe(0);
  });

  it('pause while waiting for a Retry-After: the item waits for Resume instead of being sent when the wait ends', async () => {
    const list = ['limited', 'next'];
    const pause = createPauseSwitch();
    const scripted = scriptedGate((uid, attempt) => (uid === 'limited' && attempt === 1 ? failure('RATE_LIMITED', 'refused', { status: 429, retryAfterSeconds: 30 }) : done()));
    let endWait: () => void = () => undefined;
    let waiting: () => void = () => undefined;
    const waitStarted = new Promise<void>((resolve) => (waiting = resolve));
    const finished = run(await job(list), scripted.gate, list, {
      concurrency: 1,
      control: { pause },
      // The Retry-After wait ends when the test says so; the spacing after it passes at once.
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          clock += ms;
          if (ms < 30_000) return resolve();
          endWait = resolve;
          waiting();
        }),
    });
    await waitStarted;
    pause.pause();
    endWait();
    // Several turns of the event loop: an item let through would be sent by now.
    await new Promise<void>((resolve) => {
      const later = (turns: number) => setImmediate(() => (turns > 0 ? later(turns - 1) : resolve()));
      later(20);
    });
    const sentAtResume = scripted.sent.length;
    pause.resume();
    expect((await finished).counts.done).toBe(2);
    expect(sentAtResume).toBe(1);
  });

  it('re-checked items (in flight at a crash) count a 404 as done before the interruption', async () => {
    const list = ['was-in-flight'];
    const scripted = scriptedGate(() => failure('NOT_FOUND', 'refused', { status: 404 }));
    const journal = await job(list);
    const result = await run(journal, scripted.gate, list, { items: itemsOf(list, true) });
    expect(result.counts.doneBeforeInterruption).toBe(1);
  });
});
