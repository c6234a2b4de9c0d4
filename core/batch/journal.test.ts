import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import { DATA_LOCK_TIMINGS } from '../data-lock';
import { openAppendFile, type OpenAppendFile } from './append-file';
import { jobPaths, type BatchPlan } from './job-files';
import { listJobs, mostRecentUnfinished } from './job-list';
import { readItems, readJobState } from './job-state';
import { createJob, resumeJob, type Journal } from './journal';

const plan = (total: number): BatchPlan => ({ action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: true, total, source: 'uids.csv' });
const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ line: from + i + 2, uid: `user-${from + i}` }));

async function jobWithItems(dir: string, total: number, options = {}): Promise<Journal> {
  const journal = await createJob(dir, plan(total), options);
  await journal.appendItems(items(0, total));
  await journal.finishItems();
  return journal;
}

/** Counts fsyncs and writes per file name, around the real file operations. */
function countingFiles() {
  const counts: Record<string, { appends: number; syncs: number }> = {};
  const openFile: OpenAppendFile = async (path) => {
    const file = await openAppendFile(path);
    const count = (counts[path.split('/').pop() ?? path] ??= { appends: 0, syncs: 0 });
    return {
      append: (text) => (count.appends++, file.append(text)),
      sync: () => (count.syncs++, file.sync()),
      close: () => file.close(),
    };
  };
  return { counts, openFile };
}

describe('batch journal', () => {
  let dir: string;
  const open: Journal[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-journal-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((journal) => journal.close().catch(() => undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the plan owner-only, and reads back each item state and the counts', async () => {
    const journal = await jobWithItems(dir, 5);
    const paths = jobPaths(dir, journal.jobId);
    expect(statSync(paths.plan).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(paths.plan, 'utf8'))).toMatchObject({ ...plan(5), jobId: journal.jobId });
    await journal.recordStarted([0, 1, 2, 3]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 204, requestId: 'r0' });
    await journal.recordOutcome({ item: 1, outcome: 'not-found', status: 404 });
    await journal.recordOutcome({ item: 2, outcome: 'unknown-retry', reason: 'timeout' });
    await journal.close();

    const state = await readJobState(dir, journal.jobId);
    expect([0, 1, 2, 3, 4].map(state.stateOf)).toEqual(['done', 'not-found', 'retry-unknown', 'in-flight', 'never-started']);
    expect(state.counts).toMatchObject({ done: 1, 'not-found': 1, 'retry-unknown': 1, 'in-flight': 1, 'never-started': 1 });
    expect(state.unfinished).toBe(3);
    expect([...state.unfinishedItems()]).toEqual([
      { item: 2, state: 'retry-unknown', recheckAsUnknown: true },
      { item: 3, state: 'in-flight', recheckAsUnknown: true },
      { item: 4, state: 'never-started', recheckAsUnknown: false },
    ]);
    const stored = [];
    for await (const item of readItems(dir, journal.jobId)) stored.push(item);
    expect(stored.map((item) => item.uid)).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);
  });

  it('keeps a retried item as unknown when an earlier attempt may have reached the service', async () => {
    const journal = await jobWithItems(dir, 3);
    await journal.recordStarted([0, 1, 2]);
    await journal.recordOutcome({ item: 0, outcome: 'not-sent-retry', reason: 'connection refused' });
    await journal.recordStarted([1]); // item 1 started twice: its first attempt never reported
    await journal.recordOutcome({ item: 1, outcome: 'not-sent-retry' });
    await journal.recordOutcome({ item: 2, outcome: 'done' });
    await journal.flush();
    await journal.recordStarted([2]); // a finished item is never reopened
    await journal.close();
    const state = await readJobState(dir, journal.jobId);
    expect([0, 1, 2].map(state.stateOf)).toEqual(['retry-not-sent', 'retry-unknown', 'done']);
  });

  it('ignores a torn last line when reading, and cuts it off when the job is resumed', async () => {
    const journal = await jobWithItems(dir, 3);
    await journal.recordStarted([0, 1]);
    await journal.recordOutcome({ item: 0, outcome: 'done' });
    await journal.close();
    const { journal: path } = jobPaths(dir, journal.jobId);
    appendFileSync(path, '{"seq":4,"at":"2026-11-22T19:00:00.000Z","item":1,"kind":"outc');

    const state = await readJobState(dir, journal.jobId);
    expect(state.tornTail).toBe(true);
    expect(state.corruptLines).toEqual([]);
    expect([0, 1, 2].map(state.stateOf)).toEqual(['done', 'in-flight', 'never-started']);

    const resumed = await resumeJob(dir, journal.jobId);
    open.push(resumed);
    await resumed.recordStarted([2]);
    await resumed.close();
    const after = await readJobState(dir, journal.jobId);
    expect(after.tornTail).toBe(false);
    expect(after.corruptLines).toEqual([]);
    expect(after.lastSeq).toBe(4);
    expect([0, 1, 2].map(after.stateOf)).toEqual(['done', 'in-flight', 'in-flight']);
  });

  it('writes several started records and the buffered outcomes with one fsync per group', async () => {
    const { counts, openFile } = countingFiles();
    const journal = await jobWithItems(dir, 20, { openFile, flushEvery: 4 });
    expect(counts['items.jsonl']).toEqual({ appends: 1, syncs: 1 });
    await journal.recordStarted([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(counts['journal.jsonl']).toEqual({ appends: 1, syncs: 1 });
    for (const item of [0, 1, 2]) await journal.recordOutcome({ item, outcome: 'done' });
    expect(counts['journal.jsonl']?.syncs).toBe(1); // buffered
    await journal.recordOutcome({ item: 3, outcome: 'done' }); // the fourth fills the group
    expect(counts['journal.jsonl']?.syncs).toBe(2);
    await journal.recordOutcome({ item: 4, outcome: 'done' });
    await journal.recordStarted([8, 9]); // the buffered outcome goes with the next starts
    expect(counts['journal.jsonl']).toEqual({ appends: 3, syncs: 3 });
    await journal.close();
    const state = await readJobState(dir, journal.jobId);
    expect(state.counts).toMatchObject({ done: 5, 'in-flight': 5, 'never-started': 10 });
    expect(state.lastSeq).toBe(15);
  });

  it('refuses a second runner of the same job with a clear error, and lets it in after close', async () => {
    const journal = await jobWithItems(dir, 2);
    const second = resumeJob(dir, journal.jobId);
    await expect(second).rejects.toBeInstanceOf(PrivacyDeskError);
    // This process holds it: named as such (pid, computer), not as "another process".
    await expect(second).rejects.toThrow(new RegExp(`is being run by process ${process.pid} on this computer \\(`));
    expect((await listJobs(dir)).jobs[0]?.state).toBe('running');
    await journal.close();
    const again = await resumeJob(dir, journal.jobId);
    open.push(again);
    await again.close();
  });

  it('lists jobs newest first with their state, and picks the most recent unfinished one', async () => {
    let clock = Date.parse('2026-11-22T10:00:00Z');
    const now = () => new Date((clock += 60_000));
    const finished = await createJob(dir, plan(1), { now });
    await finished.appendItems(items(0, 1));
    await finished.finishItems();
    await finished.recordStarted([0]);
    await finished.recordOutcome({ item: 0, outcome: 'failed', reason: 'retry budget spent' });
    await finished.close();
    const older = await jobWithItems(dir, 2, { now });
    await older.close();
    const newer = await jobWithItems(dir, 3, { now });
    await newer.close();
    const running = await jobWithItems(dir, 1, { now });
    open.push(running);

    const { jobs } = await listJobs(dir);
    expect(jobs.map((job) => [job.jobId, job.state, job.unfinished])).toEqual([
      [running.jobId, 'running', 1],
      [newer.jobId, 'unfinished', 3],
      [older.jobId, 'unfinished', 2],
      [finished.jobId, 'finished', 0],
    ]);
    expect(jobs[3]?.counts.failed).toBe(1);
    expect((await mostRecentUnfinished(dir))?.jobId).toBe(newer.jobId);
  });

  it('says which job is missing', async () => {
    await expect(readJobState(dir, '20261122-190000-abcdef')).rejects.toThrow(/no batch job “20261122-190000-abcdef”/);
    await expect(resumeJob(dir, '../x')).rejects.toBeInstanceOf(PrivacyDeskError);
    expect(await mostRecentUnfinished(dir)).toBeNull();
  });

  it('reads the state of 100,000 items', async () => {
    const total = 100_000;
    const journal = await createJob(dir, plan(total), { flushEvery: 5_000 });
    for (let from = 0; from < total; from += 10_000) await journal.appendItems(items(from, 10_000));
    await journal.finishItems();
    for (let from = 0; from < 90_000; from += 1_000) {
      const group = Array.from({ length: 1_000 }, (_, i) => from + i);
      await journal.recordStarted(group);
      for (const item of group) if (item < 80_000) await journal.recordOutcome({ item, outcome: item % 10 === 0 ? 'not-found' : 'done' });
    }
    await journal.close();
    const state = await readJobState(dir, journal.jobId);
    expect(state.itemCount).toBe(total);
    expect(state.counts).toMatchObject({ done: 72_000, 'not-found': 8_000, 'in-flight': 10_000, 'never-started': 10_000 });
    expect(state.unfinished).toBe(20_000);
  });
});

const journalModule = resolve(import.meta.dirname, 'journal.ts');

describe('batch journal killed mid-run', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-kill-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads back what is on disk after SIGKILL: no item both finished and unfinished, in-flight items reported', async () => {
    const total = 100_000;
    // Starts groups of 7 and records their outcomes in a loop until killed; says when it is well under way.
    const code = `
      import { createJob } from ${JSON.stringify(journalModule)};
      const total = ${total};
      const journal = await createJob(process.argv[1], { action: 'anonymize', profileId: 'p', profileName: 'P', baseUrl: 'http://x', logoutFirst: false, total, source: '-' }, { flushEvery: 5 });
      for (let i = 0; i < total; i += 1000) await journal.appendItems(Array.from({ length: 1000 }, (_, k) => ({ line: i + k + 1, uid: 'u' + (i + k) })));
      await journal.finishItems();
      console.log(journal.jobId);
      for (let item = 0; item + 7 <= total; item += 7) {
        const group = Array.from({ length: 7 }, (_, k) => item + k);
        await journal.recordStarted(group);
        if (item === 700) console.log('under way');
        for (const done of group.slice(0, 5)) journal.recordOutcome({ item: done, outcome: done % 3 ? 'done' : 'unknown-retry' });
      }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!output.includes('under way')) await once(child.stdout, 'data');
    child.kill('SIGKILL');
    await once(child, 'exit');
    const jobId = output.split('\n')[0] ?? '';

    // The lines on disk, read the simple way: the last complete event of each item.
    const text = readFileSync(jobPaths(dir, jobId).journal, 'utf8');
    const complete = text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean);
    const last = new Map<number, { kind: string; outcome?: string }>();
    for (const line of complete) {
      const event = JSON.parse(line) as { item: number; kind: string; outcome?: string };
      last.set(event.item, event);
    }
    const state = await readJobState(dir, jobId);
    expect(state.corruptLines).toEqual([]);
    expect(last.size).toBeGreaterThan(700);
    for (let item = 0; item < total; item++) {
      const event = last.get(item);
      const expected = !event ? 'never-started' : event.kind === 'started' ? 'in-flight' : event.outcome === 'unknown-retry' ? 'retry-unknown' : event.outcome;
      if (state.stateOf(item) !== expected) expect({ item, state: state.stateOf(item) }).toEqual({ item, state: expected });
    }
    const finished = [...last.values()].filter((event) => event.outcome === 'done').length;
    expect(state.counts.done).toBe(finished);
    expect(state.unfinished).toBe(total - finished);
    expect([...state.unfinishedItems()].length).toBe(total - finished);
    expect(state.counts['in-flight']).toBeGreaterThan(0);

    // The killed run's lock is left behind; once stale (its refresh stopped) a new run takes the job over.
    const stale = new Date(Date.now() - 60_000);
    utimesSync(jobPaths(dir, jobId).runLock, stale, stale);
    const resumed = await resumeJob(dir, jobId);
    await resumed.close();
    expect((await readJobState(dir, jobId)).tornTail).toBe(false);
  }, 60_000);
});

describe('batch journal write failures', () => {
  it('stops writing after a failed write, so a half-written line is never followed by more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-fail-'));
    try {
      let failNext = false;
      const openFile: OpenAppendFile = async (path) => {
        const file = await openAppendFile(path);
        return {
          ...file,
          append: (text) => (failNext ? Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' })) : file.append(text)),
        };
      };
      const journal = await jobWithItems(dir, 3, { openFile });
      await journal.recordStarted([0]);
      failNext = true;
      await expect(journal.recordStarted([1])).rejects.toThrow(/could not write the journal .*stopped sending.*ENOSPC/);
      failNext = false;
      await expect(journal.recordStarted([2])).rejects.toThrow(/stopped sending/);
      await journal.close();
      const state = await readJobState(dir, journal.jobId);
      expect([0, 1, 2].map(state.stateOf)).toEqual(['in-flight', 'never-started', 'never-started']);
      expect(state.itemsComplete).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('batch journal losing its run lock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses to record starts once another process took the job over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'batch-lost-'));
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const journal = await jobWithItems(dir, 2);
      rmSync(jobPaths(dir, journal.jobId).runLock, { recursive: true }); // as after a takeover
      await vi.advanceTimersByTimeAsync(DATA_LOCK_TIMINGS.REFRESH_MS);
      await vi.waitFor(() => expect(journal.signal.aborted).toBe(true), { interval: 1 });
      await expect(journal.recordStarted([0])).rejects.toThrow(/lost the run lock of batch job .* stopped sending/);
      await journal.close();
      expect((await readJobState(dir, journal.jobId)).counts['never-started']).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
