import { describe, expect, it } from 'vitest';
import type { BatchJobSummary, BatchProgress, BatchRunResult } from '../shared/batch';
import { bridgeEvents, type BridgeEvent } from '../shared/contract';
import { PrivacyDeskError } from '../shared/errors';
import type { JobFinished } from '../shared/jobs';
import type { BatchRun, BatchRunControl, DeskBatch } from '../core/batch/batch-types';
import { batchHandlers } from './batch-handlers';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

/**
 * The bridge's own part of a batch run, over a scripted desk.batch: what
 * becomes a job and when, where pause and cancel go, and how a run's end is
 * reported. The run itself is tested over a real Desk in batch-handlers.test.ts.
 */

const BATCH_ID = '20261122-200000-abcdef';
const DRAFT_ID = 'a'.repeat(32);
const COUNTS = { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 2 };

function progress(state: BatchProgress['state'], done = 0): BatchProgress {
  return { batchId: BATCH_ID, total: 2, counts: { ...COUNTS, done, unfinished: 2 - done }, inFlight: 0, ratePerSecond: 0, state };
}

/** A run the test ends by hand, with the controls the handler gave it. */
interface ScriptedRun {
  control: BatchRunControl;
  finish(result: BatchRunResult): void;
  fail(error: unknown): void;
}

function setUp(options: { refuseStart?: PrivacyDeskError; progressBeforeAnswer?: BatchProgress } = {}) {
  const events: BridgeEvent[] = [];
  const finishedWaiters = new Map<string, (finished: JobFinished) => void>();
  const runs: ScriptedRun[] = [];
  const summaries: BatchJobSummary[] = [];
  let next = 0;
  const jobs = createJobRegistry(
    (name, payload) => {
      events.push({ name, payload } as BridgeEvent);
      if (name === 'job.finished') finishedWaiters.get((payload as JobFinished).jobId)?.(payload as JobFinished);
    },
    () => `job-${(next += 1)}`,
  );
  const begin = async (control: BatchRunControl | undefined): Promise<BatchRun> => {
    if (options.refuseStart) throw options.refuseStart;
    let finish!: (result: BatchRunResult) => void;
    let fail!: (error: unknown) => void;
    const finished = new Promise<BatchRunResult>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    runs.push({ control: control ?? {}, finish, fail });
    if (options.progressBeforeAnswer) control?.onProgress?.(options.progressBeforeAnswer);
    return { batchId: BATCH_ID, total: 2, finished };
  };
  const unused = () => Promise.reject(new Error('not used in this test'));
  const batch: DeskBatch = {
    preview: unused,
    checkConnection: unused,
    check: unused,
    start: (_request, control) => begin(control),
    resume: (_batchId, _options, control) => begin(control),
    checkFailed: unused,
    retry: (_batchId, _options, control) => begin(control),
    discard: async () => false,
    discardOpenDrafts: () => undefined,
    list: async () => summaries,
    listAll: async () => ({ jobs: summaries, damaged: [] }),
    mostRecentUnfinished: unused,
    results: () => {
      throw new Error('not used in this test');
    },
    exportResults: unused,
  };
  const handlers = batchHandlers({ desk: { batch }, jobs }) as Pick<BridgeHandlers, keyof ReturnType<typeof batchHandlers>>;
  const call = async <T>(method: keyof typeof handlers, input: unknown): Promise<T> => {
    const handler = handlers[method] as (input: unknown) => Promise<T>;
    return handler(input);
  };
  const finishedOf = (jobId: string) =>
    new Promise<JobFinished>((resolve) => {
      const already = events.find((e) => e.name === 'job.finished' && e.payload.jobId === jobId);
      if (already) resolve(already.payload as JobFinished);
      else finishedWaiters.set(jobId, resolve);
    });
  return { events, runs, summaries, call, finishedOf, jobs };
}

const startInput = { draftId: DRAFT_ID, profileId: 'sandbox', action: 'delete', logoutFirst: false, concurrency: 4, confirmation: 'DELETE 2' };

describe('batch.start and batch.resume as jobs', () => {
  it('a start the desk refuses rejects the call itself: no job, no event', async () => {
    const refusal = new PrivacyDeskError({ code: 'INVALID_INPUT', outcome: 'not-sent', message: 'Type DELETE 2 to confirm.' });
    const { events, call } = setUp({ refuseStart: refusal });
    await expect(call('batch.start', startInput)).rejects.toBe(refusal);
    expect(events).toEqual([]);
  });

  it('answers the job and the batch, reports progress (even progress sent before the answer), and completes with the run result', async () => {
    const { events, runs, call, finishedOf } = setUp({ progressBeforeAnswer: progress('running') });
    const answer = await call<{ jobId: string; batchId: string }>('batch.start', startInput);
    expect(answer).toEqual({ jobId: 'job-1', batchId: BATCH_ID });
    runs[0]!.control.onProgress?.(progress('running', 1));
    const result: BatchRunResult = { batchId: BATCH_ID, total: 2, counts: { ...COUNTS, done: 2, unfinished: 0 }, state: 'finished' };
    runs[0]!.finish(result);

    expect(await finishedOf('job-1')).toEqual({ jobId: 'job-1', kind: 'batch.run', status: 'completed', result });
    const reported = events.flatMap((e) => (e.name === 'job.progress' && e.payload.kind === 'batch.run' ? [e.payload.counts.done] : []));
    expect(reported).toEqual([0, 1]);
    for (const event of events) expect(bridgeEvents[event.name].safeParse(event.payload).success, JSON.stringify(event)).toBe(true);
  });

  it("batch.setPaused switches the run's pause, and is refused once the job has ended", async () => {
    const { runs, call, finishedOf } = setUp();
    const { jobId } = await call<{ jobId: string }>('batch.resume', { batchId: BATCH_ID, concurrency: 4, confirmation: 'DELETE 2' });
    const pause = runs[0]!.control.pause!;
    expect(await call('batch.setPaused', { jobId, paused: true })).toEqual({ paused: true });
    expect(pause.paused).toBe(true);
    expect(await call('batch.setPaused', { jobId, paused: false })).toEqual({ paused: false });
    expect(pause.paused).toBe(false);

    runs[0]!.finish({ batchId: BATCH_ID, total: 2, counts: COUNTS, state: 'finished' });
    await finishedOf(jobId);
    await expect(call('batch.setPaused', { jobId, paused: true })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('no running batch job') });
  });

  it('jobs.cancel reaches the run as its cancel signal; the run then reports its own end', async () => {
    const { runs, call, finishedOf, jobs } = setUp();
    const { jobId } = await call<{ jobId: string }>('batch.start', startInput);
    const signal = runs[0]!.control.signal!;
    expect(signal.aborted).toBe(false);
    expect(jobs.cancel(jobId)).toBe(true);
    expect(signal.aborted).toBe(true);
    const result: BatchRunResult = { batchId: BATCH_ID, total: 2, counts: { ...COUNTS, done: 1, unfinished: 1 }, state: 'cancelled' };
    runs[0]!.finish(result);
    // The run finished its in-flight items and says so: the counts are not lost in a bare "cancelled".
    expect(await finishedOf(jobId)).toEqual({ jobId, kind: 'batch.run', status: 'completed', result });
  });

  it('a run that has to stop (journal unwritable) ends the job as failed, naming the batch, with no unhandled rejection', async () => {
    const { runs, call, finishedOf } = setUp();
    const { jobId } = await call<{ jobId: string }>('batch.start', startInput);
    runs[0]!.fail(new PrivacyDeskError({ code: 'INTERNAL', outcome: 'unknown', message: 'The batch journal could not be written: the disk is full.' }));
    expect(await finishedOf(jobId)).toMatchObject({ jobId, kind: 'batch.run', status: 'failed', batchId: BATCH_ID, error: { message: expect.stringContaining('disk is full') } });
  });

  it('two runs at once each keep their own pause switch', async () => {
    const { runs, call } = setUp();
    const first = await call<{ jobId: string }>('batch.start', startInput);
    const second = await call<{ jobId: string }>('batch.start', startInput);
    await call('batch.setPaused', { jobId: second.jobId, paused: true });
    expect([runs[0]!.control.pause!.paused, runs[1]!.control.pause!.paused]).toEqual([false, true]);
    expect(first.jobId).not.toBe(second.jobId);
  });
});

describe('batch.get', () => {
  it('finds one job by its id, and answers null for another', async () => {
    const { summaries, call } = setUp();
    const summary: BatchJobSummary = {
      batchId: BATCH_ID,
      action: 'delete',
      profileId: 'sandbox',
      profileName: 'Sandbox',
      baseUrl: 'http://127.0.0.1:4600',
      logoutFirst: false,
      source: 'pasted list',
      createdAt: '2026-11-22T20:00:00.000Z',
      total: 2,
      state: 'finished',
      counts: { ...COUNTS, done: 2, unfinished: 0 },
      revision: 0,
    };
    summaries.push(summary);
    expect(await call('batch.get', { batchId: BATCH_ID })).toEqual({ job: summary });
    expect(await call('batch.get', { batchId: '20261122-200000-000000' })).toEqual({ job: null });
  });
});
