/**
 * The durable record of a batch job in the data folder: `<dataDir>/batches/<jobId>/`
 *   plan.json      what the job does (written once, atomically, 0600)
 *   items.jsonl    one { line, uid, reference? } per item, appended by the caller as it streams the input
 *   journal.jsonl  one JournalEvent per line: 'started' before an item is sent, 'outcome' after,
 *                  'retry' when a failed item is to be sent again (batch retry)
 *   run.lock       held by the one process running the job
 *   runner.json    which process holds run.lock, and whether its operator paused the run (job-runner.ts)
 *
 * The promise, and how writes are grouped so fsync does not limit a large batch:
 * - recordStarted(items) writes their 'started' lines (and any buffered outcomes) in ONE write and
 *   ONE fsync, and resolves only once they are on disk: the runner sends an item only after that,
 *   so an item is never sent before its 'started' record is durable.
 * - recordOutcome() buffers; the buffer goes to disk with the next recordStarted, when it holds
 *   `flushEvery` outcomes, or on flush()/close(). An outcome lost in a crash leaves its item
 *   'started' without an outcome: on resume it is in flight, re-checked as unknown (the same act
 *   again; a 404 then means "done before the interruption"). Nothing recorded done is sent again.
 * - A torn last line (a crash mid-write) was never acknowledged, so nothing was sent on its
 *   strength: readers ignore it and resumeJob() cuts it off before appending.
 */
import { open } from 'node:fs/promises';
import { PrivacyDeskError } from '../../shared/errors';
import { openAppendFile, type AppendFile, type OpenAppendFile } from './append-file';
import { jobPaths, makeJobDir, newJobId, writeFileAtomic, type BatchItem, type BatchPlan, type ItemOutcome, type JournalEvent, type StoredPlan } from './job-files';
import { journalDamage, readItems, readJobState, readPlan } from './job-state';
import { takeRunLock, type RunLock } from './run-lock';
import { msg } from '../../shared/messages';
import type { MessageText } from '../../shared/message-text';

export interface JournalOptions {
  /** Buffered outcomes written together; default 64. */
  flushEvery?: number;
  now?: () => Date;
  /** Tests inject a wrapper to count writes and fsyncs. */
  openFile?: OpenAppendFile;
}

export interface OutcomeRecord {
  item: number;
  outcome: ItemOutcome;
  status?: number;
  requestId?: string;
  reason?: string;
  /** The same reason as a message the window words in its language. */
  reasonText?: MessageText;
}

export interface Journal {
  readonly jobId: string;
  readonly plan: StoredPlan;
  /** Aborted when the run lock was lost; every later write throws its reason. */
  readonly signal: AbortSignal;
  /** Appends items in order (indexes continue from the last); no fsync: finishItems() syncs once. */
  appendItems(items: readonly BatchItem[]): Promise<void>;
  /** Makes items.jsonl durable; call once all items are appended, before the first recordStarted. */
  finishItems(): Promise<void>;
  /** Resolves once the 'started' lines are on disk (one write, one fsync): only then send the items. */
  recordStarted(items: readonly number[]): Promise<void>;
  /**
   * Turns failed items back to unfinished (batch retry), in one write and one fsync before any of them is sent
   * again, so a crash from here on leaves them for `batch resume`; `recheck` as JournalEvent says.
   */
  recordRetry(items: readonly { item: number; recheck: boolean }[]): Promise<void>;
  /** Buffers an outcome; resolves when it is buffered, or written if this filled the buffer. */
  recordOutcome(record: OutcomeRecord): Promise<void>;
  /** Writes buffered outcomes (one write, one fsync). */
  flush(): Promise<void>;
  /** The operator paused or resumed the run: recorded where every other process reads it (not in the journal). */
  setPaused(paused: boolean): void;
  /** The run is stopping (its items in flight finish): recorded where every other process reads it. */
  setStopping(): void;
  /** Flushes and lets go of the run lock. */
  close(): Promise<void>;
}

/** Writes plan.json, takes the job's run lock and returns its journal. */
export async function createJob(dataDir: string, plan: BatchPlan, options: JournalOptions = {}): Promise<Journal> {
  if (!Number.isInteger(plan.total) || plan.total < 0) throw new Error(`Invalid batch total ${plan.total}`);
  const createdAt = (options.now ?? (() => new Date()))();
  const jobId = newJobId(createdAt);
  const paths = jobPaths(dataDir, jobId);
  makeJobDir(dataDir, jobId);
  // Locked before the plan appears, so no one lists this job as unfinished (and resumes it) while it is being created.
  const lock = await takeRunLock(dataDir, jobId);
  try {
    const stored: StoredPlan = { ...plan, jobId, createdAt: createdAt.toISOString() };
    writeFileAtomic(paths.plan, paths.dir, `${JSON.stringify(stored, null, 2)}\n`);
    return await openJournal(dataDir, stored, lock, { nextSeq: 1, itemCount: 0, itemsFinished: false }, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Takes the run lock of an existing job (throws when another process runs it) and returns its journal to go on. */
export async function resumeJob(dataDir: string, jobId: string, options: JournalOptions = {}): Promise<Journal> {
  const plan = readPlan(dataDir, jobId);
  const lock = await takeRunLock(dataDir, jobId);
  try {
    const paths = jobPaths(dataDir, jobId);
    await cutTornTail(paths.journal);
    await cutTornTail(paths.items);
    const state = await readJobState(dataDir, jobId);
    // What was sent is known only from an intact journal and item list: a damaged line stops the job before anything is sent.
    if (state.corruptLines.length > 0) {
      throw journalDamage(dataDir, jobId, state.corruptLines);
    }
    for await (const _item of readItems(dataDir, jobId));
    return openJournal(dataDir, plan, lock, { nextSeq: state.lastSeq + 1, itemCount: state.itemCount, itemsFinished: true }, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

interface Start {
  nextSeq: number;
  itemCount: number;
  itemsFinished: boolean;
}

async function openJournal(dataDir: string, plan: StoredPlan, lock: RunLock, start: Start, options: JournalOptions): Promise<Journal> {
  const paths = jobPaths(dataDir, plan.jobId);
  const openFile = options.openFile ?? openAppendFile;
  const now = options.now ?? (() => new Date());
  const flushEvery = options.flushEvery ?? 64;
  const journalFile = await openFile(paths.journal);
  let itemsFile: AppendFile | null = start.itemsFinished ? null : await openFile(paths.items);
  let itemCount = start.itemCount;
  let seq = start.nextSeq;
  let buffered: Omit<JournalEvent, 'seq'>[] = [];
  // Writes go one after another, so lines never interleave and seq order is file order.
  let queue: Promise<void> = Promise.resolve();
  const serial = (step: () => Promise<void>) => {
    const run = queue.then(step);
    queue = run.catch(() => undefined);
    return run;
  };
  // seq is given at write time, so it follows file order.
  const line = (event: Omit<JournalEvent, 'seq'>) => `${JSON.stringify({ seq: seq++, ...event })}\n`;
  // After a failed write the file may end in part of a line: refuse further writes (resumeJob cuts it off).
  let broken: unknown = null;
  const writeDurably = async (text: string) => {
    lock.signal.throwIfAborted();
    if (broken) throw journalBroken(plan.jobId, broken);
    try {
      await journalFile.append(text);
      await journalFile.sync();
    } catch (error) {
      broken = error;
      throw journalBroken(plan.jobId, error);
    }
  };
  const takeBuffer = () => {
    const text = buffered.map(line).join('');
    buffered = [];
    return text;
  };

  return {
    jobId: plan.jobId,
    plan,
    signal: lock.signal,
    appendItems: (items) =>
      serial(async () => {
        if (!itemsFile) throw new Error('Items are already finished for this job');
        if (itemCount + items.length > plan.total) throw new Error(`Batch job ${plan.jobId} has only ${plan.total} items`);
        lock.signal.throwIfAborted();
        await itemsFile.append(items.map((item) => `${JSON.stringify(item)}\n`).join(''));
        itemCount += items.length;
      }),
    finishItems: () =>
      serial(async () => {
        if (!itemsFile) return;
        if (itemCount !== plan.total) throw new Error(`Batch job ${plan.jobId} expects ${plan.total} items, got ${itemCount}`);
        await itemsFile.sync();
        await itemsFile.close();
        itemsFile = null;
      }),
    recordStarted: (items) =>
      serial(async () => {
        if (itemsFile) throw new Error('Call finishItems() before starting items');
        for (const item of items) assertItem(item, itemCount);
        await writeDurably(takeBuffer() + items.map((item) => line({ at: now().toISOString(), item, kind: 'started' })).join(''));
      }),
    recordRetry: (items) =>
      serial(async () => {
        if (itemsFile) throw new Error('Call finishItems() before retrying items');
        for (const { item } of items) assertItem(item, itemCount);
        await writeDurably(takeBuffer() + items.map(({ item, recheck }) => line({ at: now().toISOString(), item, kind: 'retry', recheck })).join(''));
      }),
    recordOutcome: (record) => {
      assertItem(record.item, itemCount);
      buffered.push({ at: now().toISOString(), item: record.item, kind: 'outcome', ...outcomeFields(record) });
      return buffered.length >= flushEvery ? serial(async () => flushBuffer()) : Promise.resolve();
    },
    flush: () => serial(async () => flushBuffer()),
    setPaused: (paused) => lock.setPaused(paused),
    setStopping: () => lock.setStopping(),
    close: async () => {
      try {
        await serial(async () => {
          await flushBuffer();
          await journalFile.close();
          await itemsFile?.close();
        });
      } finally {
        await lock.release();
      }
    },
  };

  async function flushBuffer() {
    const text = takeBuffer();
    if (text) await writeDurably(text);
  }
}

function journalBroken(jobId: string, error: unknown): PrivacyDeskError {
  // The system's code (ENOSPC…) apart, when it gave one.
  const code = (error as NodeJS.ErrnoException).code;
  return new PrivacyDeskError(
    { code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.journalNotWritten', { job: jobId }), ...(code ? { quote: { from: 'system' as const, text: code } } : {}) },
    { cause: error },
  );
}

function outcomeFields(record: OutcomeRecord): Pick<JournalEvent, 'outcome' | 'status' | 'requestId' | 'reason' | 'reasonText'> {
  const fields: Pick<JournalEvent, 'outcome' | 'status' | 'requestId' | 'reason' | 'reasonText'> = { outcome: record.outcome };
  if (record.status !== undefined) fields.status = record.status;
  if (record.requestId !== undefined) fields.requestId = record.requestId;
  if (record.reason !== undefined) fields.reason = record.reason;
  if (record.reasonText !== undefined) fields.reasonText = record.reasonText;
  return fields;
}

function assertItem(item: number, itemCount: number): void {
  if (!Number.isInteger(item) || item < 0 || item >= itemCount) throw new Error(`No item ${item} in this batch job (${itemCount} items)`);
}

/** Cuts an incomplete last line: it was never acknowledged, and appending after it would corrupt the next line. */
async function cutTornTail(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.journalNotOpened', { path }) }, { cause: error });
  }
  try {
    // Reads backwards a chunk at a time: only the tail, however long the file.
    const chunk = Buffer.alloc(64 * 1024);
    let end = (await handle.stat()).size;
    const size = end;
    while (end > 0) {
      const start = Math.max(0, end - chunk.length);
      const { bytesRead } = await handle.read(chunk, 0, end - start, start);
      const newline = chunk.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (newline >= 0) {
        if (start + newline + 1 < size) await cutAt(start + newline + 1);
        return;
      }
      end = start;
    }
    if (size > 0) await cutAt(0);
  } finally {
    await handle.close();
  }

  async function cutAt(length: number) {
    await handle!.truncate(length);
    await handle!.sync();
  }
}
