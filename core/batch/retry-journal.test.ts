import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchResultRow } from '../../shared/batch';
import { jobPaths, type BatchPlan } from './job-files';
import { listJobs } from './job-list';
import { readJobState } from './job-state';
import { createJob, resumeJob, type Journal } from './journal';
import { readResults } from './results';

const plan = (total: number): BatchPlan => ({ action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total, source: 'uids.txt' });

async function rowsOf(dir: string, jobId: string): Promise<BatchResultRow[]> {
  const rows: BatchResultRow[] = [];
  for await (const row of readResults(dir, jobId)) rows.push(row);
  return rows;
}

/** A finished job as a run leaves it: item 0 done, 1 failed after unknown answers, 2 failed at once (refused), 3 not found. */
async function finishedWithFailures(dir: string): Promise<string> {
  const journal = await createJob(dir, plan(4));
  await journal.appendItems(['done-1', 'unclear-2', 'refused-3', 'ghost-4'].map((uid, index) => ({ line: index + 1, uid })));
  await journal.finishItems();
  await journal.recordStarted([0, 1, 2, 3]);
  await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
  await journal.recordOutcome({ item: 1, outcome: 'unknown-retry', status: 503, reason: 'HTTP 503' });
  await journal.recordOutcome({ item: 2, outcome: 'failed', status: 422, reason: 'Refused (422).' });
  await journal.recordOutcome({ item: 3, outcome: 'not-found', status: 404 });
  await journal.recordStarted([1]);
  await journal.recordOutcome({ item: 1, outcome: 'failed', status: 503, reason: 'Tried 2 times.' });
  await journal.close();
  return journal.jobId;
}

describe('a failed item sent again (the journal\'s retry event)', () => {
  let dir: string;
  const open: Journal[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-retry-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((journal) => journal.close().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a failed item keeps whether an attempt may have reached the service', async () => {
    const jobId = await finishedWithFailures(dir);
    const state = await readJobState(dir, jobId);
    expect([0, 1, 2, 3].map((item) => state.stateOf(item))).toEqual(['done', 'failed', 'failed', 'not-found']);
    expect([1, 2].map((item) => state.mayHaveReached(item))).toEqual([true, false]);
    expect(state.counts.failed).toBe(2);
  });

  it('an item failed on its only attempt, answered a 5xx or a 2xx saying it failed, may have reached the service', async () => {
    const journal = await createJob(dir, plan(4));
    await journal.appendItems(['five-xx', 'two-xx', 'refused', 'said-so'].map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    await journal.recordStarted([0, 1, 2, 3]);
    await journal.recordOutcome({ item: 0, outcome: 'failed', status: 503 });
    await journal.recordOutcome({ item: 1, outcome: 'failed', status: 200 });
    await journal.recordOutcome({ item: 2, outcome: 'failed', status: 422 });
    await journal.recordOutcome({ item: 3, outcome: 'failed', reasonText: { id: 'batch.reason.triedMayHaveReached', params: { count: 1, duration: { id: 'duration.seconds', params: { count: 30 } }, last: { id: 'code.TIMEOUT' } } } });
    await journal.close();
    const state = await readJobState(dir, journal.jobId);
    expect([0, 1, 2, 3].map((item) => state.mayHaveReached(item))).toEqual([true, true, false, true]);
  });

  it('turns only failed items unfinished, durably before anything is sent; a crash then leaves them for resume', async () => {
    const jobId = await finishedWithFailures(dir);
    const journal = await resumeJob(dir, jobId);
    open.push(journal);
    // A retry of a done and of a not-found item changes nothing: only failed items go back.
    await journal.recordRetry([
      { item: 0, recheck: false },
      { item: 1, recheck: true },
      { item: 2, recheck: false },
      { item: 3, recheck: false },
    ]);
    const lines = readFileSync(jobPaths(dir, jobId).journal, 'utf8').trim().split('\n').slice(-4).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.kind, line.item, line.recheck])).toEqual([['retry', 0, false], ['retry', 1, true], ['retry', 2, false], ['retry', 3, false]]);

    // As another process reads it before the run sends anything (or after a crash): unfinished, resumable.
    const state = await readJobState(dir, jobId);
    expect([0, 1, 2, 3].map((item) => state.stateOf(item))).toEqual(['done', 'retry-unknown', 'retry-not-sent', 'not-found']);
    expect(state.unfinished).toBe(2);
    expect([...state.unfinishedItems()]).toEqual([
      { item: 1, state: 'retry-unknown', recheckAsUnknown: true },
      { item: 2, state: 'retry-not-sent', recheckAsUnknown: false },
    ]);
    const rows = await rowsOf(dir, jobId);
    expect(rows.map((row) => row.outcome)).toEqual(['done', 'unfinished', 'unfinished', 'not-found']);
    // The old failure is not the unfinished row's reason.
    expect(rows[1]?.reason).toBeUndefined();
    await journal.close();
    const listed = (await listJobs(dir)).jobs[0];
    expect(listed).toMatchObject({ state: 'unfinished', unfinished: 2 });
    expect(listed?.counts).toMatchObject({ done: 1, failed: 0, 'not-found': 1, 'retry-unknown': 1, 'retry-not-sent': 1 });
  });

  it('the new attempts\' outcomes are the rows\' and the counts\'; one row per item, the same results', async () => {
    const jobId = await finishedWithFailures(dir);
    const journal = await resumeJob(dir, jobId);
    open.push(journal);
    await journal.recordRetry([{ item: 1, recheck: true }, { item: 2, recheck: false }]);
    await journal.recordStarted([1, 2]);
    await journal.recordOutcome({ item: 1, outcome: 'done', status: 200, requestId: 'again-1' });
    await journal.recordOutcome({ item: 2, outcome: 'failed', status: 422, reason: 'Refused again.' });
    await journal.close();

    const state = await readJobState(dir, jobId);
    expect(state.counts).toMatchObject({ done: 2, failed: 1, 'not-found': 1 });
    expect(state.unfinished).toBe(0);
    const rows = await rowsOf(dir, jobId);
    expect(rows).toHaveLength(4);
    expect(rows.map((row) => [row.uid, row.outcome, row.status])).toEqual([
      ['done-1', 'done', 200],
      ['unclear-2', 'done', 200],
      ['refused-3', 'failed', 422],
      ['ghost-4', 'not-found', 404],
    ]);
    expect(rows[1]?.requestId).toBe('again-1');
    expect(rows[2]?.reason).toBe('Refused again.');

    // Failed again, then sent again a second time: the last attempts' outcome stands.
    const second = await resumeJob(dir, jobId);
    open.push(second);
    await second.recordRetry([{ item: 2, recheck: false }]);
    await second.recordStarted([2]);
    await second.recordOutcome({ item: 2, outcome: 'done', status: 200 });
    await second.close();
    expect((await rowsOf(dir, jobId)).map((row) => row.outcome)).toEqual(['done', 'done', 'done', 'not-found']);
    expect((await readJobState(dir, jobId)).counts).toMatchObject({ done: 3, failed: 0 });
  });

  it('a retry line is a journal event: a damaged one marks the job damaged, never skipped', async () => {
    const jobId = await finishedWithFailures(dir);
    appendFileSync(jobPaths(dir, jobId).journal, `${JSON.stringify({ seq: 99, at: new Date().toISOString(), item: 1, kind: 'retry' })}\n`);
    const state = await readJobState(dir, jobId);
    expect(state.corruptLines).toHaveLength(1);
    expect(state.stateOf(1)).toBe('failed');
  });
});
