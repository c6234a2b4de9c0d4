import { describe, expect, it } from 'vitest';
import type { BatchJobSummary, BatchProgress } from '../../../shared/batch';
import { applyFinished, applyProgress, mergeJobs } from './batch-jobs-store';

const job = (more: Partial<BatchJobSummary> = {}): BatchJobSummary => ({
  batchId: '20261122-120000-abcdef',
  action: 'delete',
  profileId: 'sandbox',
  profileName: 'Sandbox',
  baseUrl: 'http://127.0.0.1:4600',
  logoutFirst: true,
  source: 'pasted list',
  createdAt: '2026-11-22T12:00:00.000Z',
  total: 20,
  state: 'running',
  counts: { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 20 },
  revision: 0,
  ...more,
});

const progress = (revision: number, done: number, state: BatchProgress['state'] = 'running'): BatchProgress & { jobId: string } => ({
  jobId: 'job-1',
  batchId: '20261122-120000-abcdef',
  total: 20,
  counts: { done, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 20 - done },
  inFlight: 2,
  ratePerSecond: 1,
  state,
  revision,
});

describe('the one record of batch jobs in the window', () => {
  it('a progress event gives the job its counts and its run’s state; an older one changes nothing', () => {
    const [paused] = applyProgress([job({ revision: 3 })], progress(5, 5, 'paused'))!;
    // Paused, as every screen and every other process says it (the jobs table, the CLI's batch list).
    expect(paused).toMatchObject({ state: 'paused', counts: { done: 5, unfinished: 15 }, live: { state: 'paused', jobId: 'job-1', inFlight: 2 }, revision: 5 });
    expect(applyProgress([paused!], progress(6, 6, 'running'))![0]).toMatchObject({ state: 'running', live: { state: 'running' } });
    expect(applyProgress([paused!], progress(4, 3, 'running'))![0]).toEqual(paused);
  });

  it('a list read before the latest event does not take the job back; a newer one replaces it', () => {
    const held = applyProgress([job({ revision: 3 })], progress(7, 5, 'paused'))!;
    const readEarlier = job({ revision: 6, counts: { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 20 } });
    expect(mergeJobs(held, [readEarlier])[0]).toBe(held[0]);
    const readLater = job({ revision: 9, state: 'finished', counts: { done: 20, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 } });
    expect(mergeJobs(held, [readLater])[0]).toBe(readLater);
  });

  it('an event for a job not in the record asks for the list again', () => {
    expect(applyProgress([], progress(1, 1))).toBeNull();
  });

  it('a run’s end gives the final counts and state at once, without its live figures', () => {
    const held = applyProgress([job()], progress(2, 5))!;
    const [ended] = applyFinished(held, { jobId: 'job-1', kind: 'batch.run', status: 'completed', result: { batchId: '20261122-120000-abcdef', total: 20, counts: { done: 12, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 8 }, state: 'cancelled' } });
    expect(ended).toMatchObject({ state: 'unfinished', counts: { done: 12, unfinished: 8 } });
    expect(ended!.live).toBeUndefined();
  });
});
