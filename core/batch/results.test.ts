import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchResultRow } from '../../shared/batch';
import { PrivacyDeskError } from '../../shared/errors';
import { jobPaths, type BatchItem, type BatchPlan } from './job-files';
import { readJobState } from './job-state';
import { createJob, type Journal } from './journal';
import { BATCH_RESULTS_CSV_COLUMNS, exportResults, readResults, writeResultsFile } from './results';

const plan = (total: number, reference?: string): BatchPlan => ({
  action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total, source: 'uids.csv',
  ...(reference === undefined ? {} : { reference }),
});

const CLOCK = new Date('2026-11-22T20:00:00.000Z');

async function jobWith(dir: string, items: BatchItem[], reference?: string, flushEvery = 64): Promise<Journal> {
  const journal = await createJob(dir, plan(items.length, reference), { now: () => CLOCK, flushEvery });
  await journal.appendItems(items);
  await journal.finishItems();
  return journal;
}

async function allRows(dir: string, jobId: string): Promise<BatchResultRow[]> {
  const rows: BatchResultRow[] = [];
  for await (const row of readResults(dir, jobId)) rows.push(row);
  return rows;
}

const AT = CLOCK.toISOString();

describe('batch results', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-results-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives one row per item in input order, with its final outcome, or unfinished', async () => {
    const journal = await jobWith(dir, [
      { line: 2, uid: 'done-one', reference: 'TICKET-1' },
      { line: 3, uid: 'gone-before' },
      { line: 5, uid: 'not-there' },
      { line: 6, uid: 'refused' },
      { line: 7, uid: 'in-flight' },
      { line: 8, uid: 'waiting-retry' },
      { line: 9, uid: 'never-started' },
    ], 'GDPR-2026-11');
    await journal.recordStarted([0, 1, 2, 3, 4, 5]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200, requestId: 'req-0' });
    await journal.recordOutcome({ item: 1, outcome: 'done-before-interruption', status: 404, requestId: 'req-1' });
    await journal.recordOutcome({ item: 2, outcome: 'not-found', status: 404 });
    await journal.recordOutcome({ item: 3, outcome: 'failed', status: 403, reason: 'The token may not erase users.' });
    await journal.recordOutcome({ item: 5, outcome: 'unknown-retry', reason: 'timeout' });
    await journal.close();

    expect(await allRows(dir, journal.jobId)).toEqual([
      { line: 2, uid: 'done-one', reference: 'TICKET-1', outcome: 'done', status: 200, requestId: 'req-0', at: AT },
      { line: 3, uid: 'gone-before', reference: 'GDPR-2026-11', outcome: 'done-before-interruption', status: 404, requestId: 'req-1', at: AT },
      { line: 5, uid: 'not-there', reference: 'GDPR-2026-11', outcome: 'not-found', status: 404, at: AT },
      { line: 6, uid: 'refused', reference: 'GDPR-2026-11', outcome: 'failed', status: 403, reason: 'The token may not erase users.', at: AT },
      { line: 7, uid: 'in-flight', reference: 'GDPR-2026-11', outcome: 'unfinished' },
      {
        line: 8,
        uid: 'waiting-retry',
        reference: 'GDPR-2026-11',
        outcome: 'unfinished',
        reason: 'last attempt: outcome unknown (timeout) — it is re-checked when the job is resumed',
        // The journal line has English words only (as lines written before reasons were messages): kept as data in the message.
        reasonText: { id: 'batch.reason.lastUnknownBecause', params: { why: { id: 'batch.reason.recorded', params: { words: 'timeout' } } } },
      },
      { line: 9, uid: 'never-started', reference: 'GDPR-2026-11', outcome: 'unfinished' },
    ]);
  });

  it('takes the final outcome after retries, and keeps it whatever comes after (as the job state does)', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ line: i + 1, uid: `u${i}` }));
    const journal = await jobWith(dir, items);
    await journal.recordStarted([0, 1, 2, 3, 4]);
    await journal.recordOutcome({ item: 0, outcome: 'unknown-retry', status: 503, reason: '503' });
    await journal.recordOutcome({ item: 1, outcome: 'not-sent-retry', reason: 'refused' });
    await journal.recordOutcome({ item: 2, outcome: 'done', status: 200, requestId: 'first' });
    await journal.recordOutcome({ item: 3, outcome: 'unknown-retry', reason: 'cut' });
    await journal.recordStarted([0, 1, 3]);
    await journal.recordOutcome({ item: 0, outcome: 'done-before-interruption', status: 404, requestId: 'second' });
    await journal.recordOutcome({ item: 1, outcome: 'unknown-retry', reason: 'timeout' });
    // A later event for a done item (a bug, or a second process) does not undo it.
    await journal.recordOutcome({ item: 2, outcome: 'failed', status: 500, reason: 'late' });
    await journal.recordOutcome({ item: 3, outcome: 'failed', reason: 'Gave up after 5 tries: the service kept answering 503.' });
    await journal.recordStarted([1, 2]);
    await journal.recordOutcome({ item: 1, outcome: 'not-found', status: 404, requestId: 'third' });
    await journal.recordOutcome({ item: 2, outcome: 'done-before-interruption', status: 404 });
    await journal.close();

    const rows = await allRows(dir, journal.jobId);
    expect(rows.map(({ uid, outcome, status, requestId, reason }) => ({ uid, outcome, status, requestId, reason }))).toEqual([
      { uid: 'u0', outcome: 'done-before-interruption', status: 404, requestId: 'second', reason: undefined },
      { uid: 'u1', outcome: 'not-found', status: 404, requestId: 'third', reason: undefined },
      { uid: 'u2', outcome: 'done', status: 200, requestId: 'first', reason: undefined },
      { uid: 'u3', outcome: 'failed', status: undefined, requestId: undefined, reason: 'Gave up after 5 tries: the service kept answering 503.' },
      { uid: 'u4', outcome: 'unfinished', status: undefined, requestId: undefined, reason: undefined },
    ]);
    // The same verdict as the job's counts.
    const state = await readJobState(dir, journal.jobId);
    expect(state.counts).toMatchObject({ done: 1, 'done-before-interruption': 1, 'not-found': 1, failed: 1, 'in-flight': 1 });
  });

  it('an unfinished item’s reason is its last attempt’s outcome: unknown (re-checked on resume) or not sent', async () => {
    const items = Array.from({ length: 4 }, (_, i) => ({ line: i + 1, uid: `u${i}` }));
    const journal = await jobWith(dir, items);
    await journal.recordStarted([0, 1, 2, 3]);
    await journal.recordOutcome({ item: 0, outcome: 'not-sent-retry', reason: 'The connection was refused.' });
    await journal.recordOutcome({ item: 0, outcome: 'unknown-retry', status: 503, reason: 'The service answered 503.' });
    await journal.recordOutcome({ item: 1, outcome: 'unknown-retry', reason: 'timeout' });
    await journal.recordOutcome({ item: 1, outcome: 'not-sent-retry', reason: 'The audit trail could not be written; nothing was sent.' });
    await journal.recordOutcome({ item: 2, outcome: 'unknown-retry' });
    await journal.close();

    const rows = await allRows(dir, journal.jobId);
    expect(rows.map(({ outcome, reason }) => ({ outcome, reason }))).toEqual([
      { outcome: 'unfinished', reason: 'last attempt: outcome unknown (The service answered 503) — it is re-checked when the job is resumed' },
      { outcome: 'unfinished', reason: 'last attempt not sent: The audit trail could not be written; nothing was sent — it is sent when the job is resumed' },
      { outcome: 'unfinished', reason: 'last attempt: outcome unknown — it is re-checked when the job is resumed' },
      // Started, no answer recorded yet: no attempt ended, so no reason.
      { outcome: 'unfinished', reason: undefined },
    ]);
    // The CSV export carries it in its reason column.
    const csv = (await exportResults(dir, journal.jobId, 'csv')).content.split('\r\n');
    expect(csv[3]).toContain('last attempt: outcome unknown — it is re-checked when the job is resumed');
  });

  it('skips a corrupt line and a torn last line, as the job state does', async () => {
    const journal = await jobWith(dir, [{ line: 1, uid: 'a' }, { line: 2, uid: 'b' }, { line: 3, uid: 'ü-multibyte-é' }]);
    await journal.recordStarted([0, 1, 2]);
    await journal.recordOutcome({ item: 2, outcome: 'done', status: 200, reason: 'ünïcödé 東京' });
    await journal.close();
    const { journal: journalPath } = jobPaths(dir, journal.jobId);
    appendFileSync(journalPath, 'not json at all\n{"seq":99,"at":"x","item":0,"kind":"outcome","outcome":"bogus"}\n');
    appendFileSync(journalPath, '{"seq":100,"at":"2026-11-22T21:00:00.000Z","item":1,"kind":"outcome","outcome":"done"}\n');
    appendFileSync(journalPath, '{"seq":101,"at":"2026-11-22T21:00:00.000Z","item":0,"kind":"outcome","outcome":"do');
    const rows = await allRows(dir, journal.jobId);
    expect(rows.map((row) => row.outcome)).toEqual(['unfinished', 'done', 'done']);
    expect(rows[1]?.at).toBe('2026-11-22T21:00:00.000Z');
    expect(rows[2]).toMatchObject({ uid: 'ü-multibyte-é', reason: 'ünïcödé 東京', at: AT });
  });

  it('exports CSV with a header, every cell neutralised against formulas, commas and quotes intact', async () => {
    const hostile = ['=HYPERLINK("http://evil")', '+33 6 12', '-1', '@SUM(A1)', 'a,b,c', 'say "hi"', 'plain'];
    const journal = await jobWith(dir, hostile.map((uid, i) => ({ line: i + 2, uid, ...(i === 0 ? { reference: '=1+1' } : {}) })), 'REF,1');
    await journal.recordStarted([0, 1, 2, 3, 4, 5]);
    for (let item = 0; item < 6; item++) await journal.recordOutcome({ item, outcome: item === 5 ? 'failed' : 'done', status: 200, requestId: `r${item}`, ...(item === 5 ? { reason: '=cmd|"/c calc"!A1, oops' } : {}) });
    await journal.close();

    const file = await exportResults(dir, journal.jobId, 'csv');
    expect(file).toMatchObject({ fileName: `privacy-desk-batch-${journal.jobId}.csv`, mimeType: 'text/csv;charset=utf-8', rows: 7 });
    expect(file.content.split('\r\n')[0]).toBe(BATCH_RESULTS_CSV_COLUMNS.join(','));
    const parsed = Papa.parse<string[]>(file.content.trimEnd(), { newline: '\r\n' });
    expect(parsed.errors).toEqual([]);
    const [header, ...cells] = parsed.data;
    expect(header).toEqual([...BATCH_RESULTS_CSV_COLUMNS]);
    expect(cells.map((row) => row[1])).toEqual(["'=HYPERLINK(\"http://evil\")", "'+33 6 12", "'-1", "'@SUM(A1)", 'a,b,c', 'say "hi"', 'plain']);
    expect(cells[0]).toEqual(['2', "'=HYPERLINK(\"http://evil\")", "'=1+1", 'done', '200', 'r0', '', AT, '']);
    expect(cells[4]?.[2]).toBe('REF,1');
    expect(cells[5]).toEqual(['7', 'say "hi"', 'REF,1', 'failed', '200', 'r5', '\'=cmd|"/c calc"!A1, oops', AT, '']);
    expect(cells[6]).toEqual(['8', 'plain', 'REF,1', 'unfinished', '', '', '', '', '']);
  });

  it('exports JSON with the job, its counts and the rows', async () => {
    const journal = await jobWith(dir, [{ line: 1, uid: 'a' }, { line: 2, uid: 'b', reference: 'R' }, { line: 3, uid: 'c' }]);
    await journal.recordStarted([0, 1]);
    await journal.recordOutcome({ item: 0, outcome: 'not-found', status: 404 });
    await journal.recordOutcome({ item: 1, outcome: 'done', status: 204, requestId: 'x' });
    await journal.close();

    const file = await exportResults(dir, journal.jobId, 'json', { now: () => new Date('2026-11-22T21:30:00Z') });
    expect(file).toMatchObject({ fileName: `privacy-desk-batch-${journal.jobId}.json`, mimeType: 'application/json', rows: 3 });
    expect(JSON.parse(file.content)).toEqual({
      format: 'privacy-desk-batch-results/1',
      batchId: journal.jobId,
      action: 'delete',
      profileName: 'Staging',
      baseUrl: 'http://127.0.0.1:1',
      source: 'uids.csv',
      createdAt: AT,
      exportedAt: '2026-11-22T21:30:00.000Z',
      total: 3,
      counts: { done: 1, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 1 },
      rows: [
        { line: 1, uid: 'a', outcome: 'not-found', status: 404, at: AT },
        { line: 2, uid: 'b', reference: 'R', outcome: 'done', status: 204, requestId: 'x', at: AT },
        { line: 3, uid: 'c', outcome: 'unfinished' },
      ],
    });
  });

  it('exports an empty job as valid files', async () => {
    const journal = await jobWith(dir, []);
    await journal.close();
    expect(JSON.parse((await exportResults(dir, journal.jobId, 'json')).content).rows).toEqual([]);
    expect((await exportResults(dir, journal.jobId, 'csv')).content).toBe(`${BATCH_RESULTS_CSV_COLUMNS.join(',')}\r\n`);
  });

  it('writes the results file into the job folder, owner-only, and returns its path', async () => {
    const journal = await jobWith(dir, [{ line: 1, uid: '=evil' }]);
    await journal.recordStarted([0]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    await journal.close();
    for (const format of ['csv', 'json'] as const) {
      const path = await writeResultsFile(dir, journal.jobId, format, { now: () => CLOCK });
      expect(path).toBe(join(jobPaths(dir, journal.jobId).dir, `results.${format}`));
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(readFileSync(path, 'utf8')).toBe((await exportResults(dir, journal.jobId, format, { now: () => CLOCK })).content);
    }
  });

  it('says so when there is no such job', async () => {
    const missing = '20261122-200000-abcdef';
    await expect(allRows(dir, missing)).rejects.toThrow(PrivacyDeskError);
    await expect(exportResults(dir, missing, 'csv')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(exportResults(dir, '../../etc', 'json')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('streams 100,000 rows without holding them', async () => {
    const total = 100_000;
    const journal = await createJob(dir, plan(total, 'BULK'), { flushEvery: 10_000, now: () => CLOCK });
    for (let from = 0; from < total; from += 10_000) {
      await journal.appendItems(Array.from({ length: 10_000 }, (_, i) => ({ line: from + i + 2, uid: `user-${String(from + i).padStart(6, '0')}@example.org` })));
    }
    await journal.finishItems();
    for (let from = 0; from < 95_000; from += 5_000) {
      const group = Array.from({ length: 5_000 }, (_, i) => from + i);
      await journal.recordStarted(group);
      for (const item of group) {
        await journal.recordOutcome(item % 7 === 0
          ? { item, outcome: 'unknown-retry', reason: 'The connection was cut before the answer.' }
          : { item, outcome: item % 10 === 0 ? 'not-found' : 'done', status: 200, requestId: `req-${item}` });
      }
    }
    // The retried ones end done before the interruption.
    for (let from = 0; from < 95_000; from += 7 * 5_000) {
      const group = Array.from({ length: 5_000 }, (_, i) => from + i * 7).filter((item) => item < 95_000);
      await journal.recordStarted(group);
      for (const item of group) await journal.recordOutcome({ item, outcome: 'done-before-interruption', status: 404 });
    }
    await journal.close();

    // With the collector exposed, heapUsed after a collection is what is still held.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    const tally: Record<string, number> = {};
    let inOrder = true;
    let previousLine = 0;
    for await (const row of readResults(dir, journal.jobId)) {
      inOrder &&= row.line > previousLine;
      previousLine = row.line;
      tally[row.outcome] = (tally[row.outcome] ?? 0) + 1;
      if (row.line % 20_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(inOrder).toBe(true);
    expect(tally).toEqual({ 'done-before-interruption': 13_572, 'not-found': 8_142, done: 73_286, unfinished: 5_000 });
    // 100,000 rows held would be well over 20 MB; the offsets live outside the heap (1.2 MB).
    expect(peak).toBeLessThan(8 * 1024 * 1024);

    const exported = await exportResults(dir, journal.jobId, 'csv');
    expect(exported.rows).toBe(total);
    expect(exported.content.split('\r\n').length).toBe(total + 2);
  }, 60_000);
});
