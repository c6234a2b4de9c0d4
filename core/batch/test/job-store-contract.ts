/**
 * What every BatchJobStore promises (core/batch/batch-job-store.ts), as one suite run against each implementation:
 * the data folder's files and the team database (core/batch/batch-job-store.test.ts). A store is opened twice over
 * the same place — the runner's, and another reader's (another process, another desktop) — so what one writes is
 * checked as the other reads it.
 */
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { BatchResultRow } from '../../../shared/batch';
import type { BatchJobStore } from '../batch-job-store';
import type { BatchItem, BatchPlan } from '../job-files';

export interface StorePair {
  /** The store the run uses. */
  runner: BatchJobStore;
  /** Another store over the same jobs (another process's, another desktop's). */
  other: BatchJobStore;
}

const plan = (total: number): BatchPlan => ({
  action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total, source: 'uids.csv', reference: 'GDPR-2026-11',
});
const items = (count: number): BatchItem[] => Array.from({ length: count }, (_, index) => ({ line: index + 2, uid: `user-${index}` }));

async function rowsOf(store: BatchJobStore, jobId: string): Promise<BatchResultRow[]> {
  const rows: BatchResultRow[] = [];
  for await (const row of store.readResults(jobId)) rows.push(row);
  return rows;
}

// Jobs sort by when they were made: each test's jobs a minute apart.
let clock = Date.parse('2026-11-24T09:00:00.000Z');

async function newJob(store: BatchJobStore, count: number, flushEvery = 1000) {
  const createdAt = new Date((clock += 60_000));
  const journal = await store.createJob(plan(count), { flushEvery, now: () => createdAt });
  await journal.appendItems(items(count).slice(0, Math.ceil(count / 2)));
  await journal.appendItems(items(count).slice(Math.ceil(count / 2)));
  await journal.finishItems();
  return journal;
}

export function describeJobStore(name: string, open: () => Promise<StorePair>): void {
  describe(`the batch job store: ${name}`, () => {
    it('records a job with its plan and items in order, run by this process, then unfinished once it lets go', async () => {
      const { runner, other } = await open();
      const journal = await newJob(runner, 5);
      const read: string[] = [];
      for await (const item of other.readItems(journal.jobId)) read.push(`${item.index}:${item.uid}:${item.line}`);
      expect(read).toEqual(['0:user-0:2', '1:user-1:3', '2:user-2:4', '3:user-3:5', '4:user-4:6']);
      const state = await other.readJobState(journal.jobId);
      expect(state).toMatchObject({ itemCount: 5, itemsComplete: true, unfinished: 5, corruptLines: [] });
      expect(state.plan).toMatchObject({ ...plan(5), jobId: journal.jobId });
      const running = (await other.listJobs()).jobs.find((job) => job.jobId === journal.jobId);
      expect(running).toMatchObject({ state: 'running', holder: { pid: process.pid } });
      await journal.close();
      expect((await other.listJobs()).jobs.find((job) => job.jobId === journal.jobId)).toMatchObject({ state: 'unfinished', unfinished: 5 });
      expect(await other.jobRunner(journal.jobId)).toEqual({ state: 'none' });
    });

    it("makes 'started' durable before recordStarted resolves, and buffered outcomes only once flushed", async () => {
      const { runner, other } = await open();
      const journal = await newJob(runner, 4);
      await journal.recordStarted([0, 1]);
      // Another reader sees them in flight as soon as the promise resolved: only then may they be sent.
      expect((await other.readJobState(journal.jobId)).counts['in-flight']).toBe(2);
      await journal.recordOutcome({ item: 0, outcome: 'done', status: 200, requestId: 'req-0' });
      expect((await other.readJobState(journal.jobId)).stateOf(0)).toBe('in-flight');
      await journal.flush();
      const state = await other.readJobState(journal.jobId);
      expect([state.stateOf(0), state.stateOf(1), state.stateOf(2)]).toEqual(['done', 'in-flight', 'never-started']);
      // The next recordStarted takes buffered outcomes with it.
      await journal.recordOutcome({ item: 1, outcome: 'not-found', status: 404 });
      await journal.recordStarted([2]);
      expect((await other.readJobState(journal.jobId)).stateOf(1)).toBe('not-found');
      await journal.close();
    });

    it('resumes after an interruption with the items in flight to re-check as unknown, never the ones done', async () => {
      const { runner, other } = await open();
      const first = await newJob(runner, 5);
      await first.recordStarted([0, 1, 2]);
      await first.recordOutcome({ item: 0, outcome: 'done', status: 200 });
      await first.recordOutcome({ item: 2, outcome: 'unknown-retry', reason: 'timeout' });
      // Gone without outcomes for item 1 (as a crash leaves it: 'started' only).
      await first.close();
      const journal = await other.resumeJob(first.jobId);
      const state = await other.readJobState(first.jobId);
      expect([...state.unfinishedItems()]).toEqual([
        { item: 1, state: 'in-flight', recheckAsUnknown: true },
        { item: 2, state: 'retry-unknown', recheckAsUnknown: true },
        { item: 3, state: 'never-started', recheckAsUnknown: false },
        { item: 4, state: 'never-started', recheckAsUnknown: false },
      ]);
      // The resumed journal goes on numbering after what was there.
      await journal.recordStarted([1, 2, 3, 4]);
      for (const item of [1, 2, 3, 4]) await journal.recordOutcome({ item, outcome: item === 1 ? 'done-before-interruption' : 'done', status: 200 });
      await journal.close();
      const after = await runner.readJobState(first.jobId);
      expect(after.unfinished).toBe(0);
      expect(after.counts).toMatchObject({ done: 4, 'done-before-interruption': 1 });
      expect(after.lastSeq).toBeGreaterThan(state.lastSeq);
    });

    it('refuses a second runner, naming the process that runs the job, and says when it is paused', async () => {
      const { runner, other } = await open();
      const journal = await newJob(runner, 2);
      const refused = await other.resumeJob(journal.jobId).catch((error: unknown) => error);
      expect(refused).toMatchObject({ outcome: 'not-sent' });
      expect(String((refused as Error).message)).toMatch(new RegExp(`Batch job ${journal.jobId} is being run by process ${process.pid} on this computer`));
      // Recorded for every reader by the time the writes asked after it are done.
      journal.setPaused(true);
      await journal.flush();
      expect(await other.jobRunner(journal.jobId)).toMatchObject({ state: 'paused', holder: { pid: process.pid } });
      journal.setStopping();
      await journal.flush();
      expect(await other.jobRunner(journal.jobId)).toMatchObject({ state: 'stopping' });
      await journal.close();
      expect((await other.jobRunner(journal.jobId)).state).toBe('none');
    });

    it('lists jobs newest first with the counts of their journals', async () => {
      const { runner, other } = await open();
      const older = await newJob(runner, 3);
      await older.recordStarted([0, 1, 2]);
      await older.recordOutcome({ item: 0, outcome: 'done' });
      await older.recordOutcome({ item: 1, outcome: 'failed', status: 403, reason: 'The token may not erase users.' });
      await older.recordOutcome({ item: 2, outcome: 'not-found', status: 404 });
      await older.close();
      const newer = await newJob(runner, 2);
      await newer.close();
      const { jobs, damaged } = await other.listJobs();
      expect(damaged).toEqual([]);
      const ids = jobs.map((job) => job.jobId);
      expect(ids.indexOf(newer.jobId)).toBeLessThan(ids.indexOf(older.jobId));
      expect(jobs.find((job) => job.jobId === older.jobId)).toMatchObject({ state: 'finished', unfinished: 0, counts: { done: 1, failed: 1, 'not-found': 1 } });
      expect(jobs.find((job) => job.jobId === newer.jobId)).toMatchObject({ state: 'unfinished', unfinished: 2 });
    });

    it('gives one results row per item in input order, and exports them', async () => {
      const { runner, other } = await open();
      const journal = await newJob(runner, 4);
      await journal.recordStarted([0, 1, 2]);
      await journal.recordOutcome({ item: 0, outcome: 'done', status: 200, requestId: 'req-0' });
      await journal.recordOutcome({ item: 1, outcome: 'done', status: 200 });
      await journal.recordOutcome({ item: 1, outcome: 'failed', status: 500 }); // after a final outcome: ignored
      await journal.recordOutcome({ item: 2, outcome: 'not-sent-retry', reason: 'the service was busy' });
      await journal.close();
      const rows = await rowsOf(other, journal.jobId);
      expect(rows.map((row) => [row.line, row.uid, row.outcome, row.reference])).toEqual([
        [2, 'user-0', 'done', 'GDPR-2026-11'],
        [3, 'user-1', 'done', 'GDPR-2026-11'],
        [4, 'user-2', 'unfinished', 'GDPR-2026-11'],
        [5, 'user-3', 'unfinished', 'GDPR-2026-11'],
      ]);
      expect(rows[0]).toMatchObject({ status: 200, requestId: 'req-0' });
      expect(rows[2]?.reason).toMatch(/the service was busy/);
      const csv = await other.exportResults(journal.jobId, 'csv');
      const parsed = Papa.parse<string[]>(csv.content.trim()).data;
      expect(parsed[0]).toEqual(['line', 'uid', 'reference', 'outcome', 'status', 'request_id', 'reason', 'at', 'pasted_uid']);
      expect(parsed.slice(1).map((cells) => cells[3])).toEqual(['done', 'done', 'unfinished', 'unfinished']);
      const json = JSON.parse((await other.exportResults(journal.jobId, 'json')).content) as { batchId: string; counts: Record<string, number> };
      expect(json).toMatchObject({ batchId: journal.jobId, counts: { done: 2, unfinished: 2 } });
    });

    it("turns a failed item back to unfinished with a 'retry' event, and its row shows the new attempt", async () => {
      const { runner, other } = await open();
      const first = await newJob(runner, 2);
      await first.recordStarted([0, 1]);
      await first.recordOutcome({ item: 0, outcome: 'done' });
      await first.recordOutcome({ item: 1, outcome: 'failed', status: 503 });
      await first.close();
      expect((await other.readJobState(first.jobId)).mayHaveReached(1)).toBe(true);
      const journal = await other.resumeJob(first.jobId);
      await journal.recordRetry([{ item: 1, recheck: true }]);
      const retried = await runner.readJobState(first.jobId);
      expect([retried.stateOf(0), retried.stateOf(1), retried.unfinished]).toEqual(['done', 'retry-unknown', 1]);
      expect((await rowsOf(runner, first.jobId)).map((row) => row.outcome)).toEqual(['done', 'unfinished']);
      await journal.recordStarted([1]);
      await journal.recordOutcome({ item: 1, outcome: 'done-before-interruption', status: 404 });
      await journal.close();
      expect((await rowsOf(runner, first.jobId)).map((row) => row.outcome)).toEqual(['done', 'done-before-interruption']);
    });

    it('says there is no such job', async () => {
      const { other } = await open();
      await expect(other.readJobState('20990101-000000-abcdef')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
      await expect(other.resumeJob('20990101-000000-abcdef')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    });
  });
}
