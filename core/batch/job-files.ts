import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ensureDataDir } from '../data-dir';
import type { MessageText } from '../../shared/message-text';

/** What a batch job will do, written once to plan.json before anything is sent. */
export interface BatchPlan {
  action: 'anonymize' | 'delete';
  profileId: string;
  profileName: string;
  baseUrl: string;
  /** One reference for the whole batch (items may carry their own). */
  reference?: string;
  logoutFirst: boolean;
  /** How many items the job has (items.jsonl lines 0…total-1). */
  total: number;
  /** Where the list came from (a file name, "pasted list", "-"). */
  source: string;
  /** How many items the operator chose to send trimmed (pasted with spaces at an end; only the trimmed form is on the service). */
  trimmedByChoice?: number;
}

export interface StoredPlan extends BatchPlan {
  jobId: string;
  /** ISO time the job was created; jobs sort by it. */
  createdAt: string;
}

/** One line of items.jsonl: `line` is the input line number, the item's index is its position in the file. */
export interface BatchItem {
  line: number;
  uid: string;
  reference?: string;
  /** The check against the service before the confirmation did not find this uid. */
  missingAtCheck?: true;
  /** The uid as pasted, spaces at an end included, when the operator chose to send its trimmed form (`uid`). */
  pastedUid?: string;
}

export const FINAL_OUTCOMES = ['done', 'not-found', 'done-before-interruption', 'failed'] as const;
export const RETRY_OUTCOMES = ['not-sent-retry', 'unknown-retry'] as const;
export type FinalOutcome = (typeof FINAL_OUTCOMES)[number];
export type ItemOutcome = FinalOutcome | (typeof RETRY_OUTCOMES)[number];

/**
 * One line of journal.jsonl: 'started' before an item is sent, 'outcome' after; 'retry' when the operator
 * chose to send a failed item again (batch retry): the item is unfinished again, its failure stays in the
 * lines before.
 */
export interface JournalEvent {
  seq: number;
  at: string;
  item: number;
  kind: 'started' | 'outcome' | 'retry';
  /** 'retry': an earlier attempt may have reached the service and no check has seen the uid since, so a 404 means "done before". */
  recheck?: boolean;
  outcome?: ItemOutcome;
  status?: number;
  requestId?: string;
  reason?: string;
  /** The reason as a message (shared/messages/), for the window's language; lines written before it have none. */
  reasonText?: MessageText;
}

export const BATCHES_FOLDER = 'batches';

export function batchesDir(dataDir: string): string {
  return join(dataDir, BATCHES_FOLDER);
}

export function jobPaths(dataDir: string, jobId: string) {
  const dir = join(batchesDir(dataDir), jobId);
  return {
    dir,
    plan: join(dir, 'plan.json'),
    items: join(dir, 'items.jsonl'),
    journal: join(dir, 'journal.jsonl'),
    runLock: join(dir, 'run.lock'),
    /** Who holds run.lock, and whether its operator paused the run (job-runner.ts). */
    runner: join(dir, 'runner.json'),
  };
}

/** Sortable by creation time, unique enough across processes: 20261122-190712-3fa9c1. */
export function newJobId(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export const JOB_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

/** Creates `<dataDir>/batches/<jobId>/` owner-only. */
export function makeJobDir(dataDir: string, jobId: string): string {
  ensureDataDir(dataDir);
  mkdirSync(batchesDir(dataDir), { recursive: true, mode: 0o700 });
  const { dir } = jobPaths(dataDir, jobId);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

/** Temp file + fsync + rename + folder fsync: a reader sees the old file or the whole new one, never half. */
export function writeFileAtomic(path: string, dir: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  let fd: number | undefined = openSync(temp, 'w', 0o600);
  try {
    // A short count (the disk filled up, a size limit) is not success: a cut file must never replace the old one.
    const bytes = Buffer.from(text, 'utf8');
    let written = writeSync(fd, bytes, 0, bytes.length);
    if (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    if (written < bytes.length) throw Object.assign(new Error(`only ${written} of ${bytes.length} bytes could be written`), { code: 'SHORT_WRITE' });
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true }); // nothing half-written stays behind
    throw error;
  }
  syncDir(dir);
}

/**
 * writeFileAtomic for a text made piece by piece (a 100,000-row results file): each piece goes to the temp file as it
 * comes, so the whole text is never in memory at once. A failure of the file itself goes through `writeFailed`; one
 * of `pieces` (reading what is written) is thrown as it is.
 */
export async function writeFileAtomicFrom(path: string, dir: string, pieces: AsyncIterable<string>, writeFailed: (error: unknown) => unknown): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  const file = <T>(step: () => Promise<T> | T): Promise<T> => Promise.resolve().then(step).catch((error: unknown) => Promise.reject(writeFailed(error)));
  const handle = await file(() => open(temp, 'w', 0o600));
  try {
    // writeFile on an open handle writes the whole piece from the current position (or throws: ENOSPC, EFBIG…).
    for await (const piece of pieces) await file(() => handle.writeFile(piece, 'utf8'));
    await file(() => handle.sync());
    await file(() => handle.close());
    await file(() => renameSync(temp, path));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temp, { force: true }); // nothing half-written stays behind
    throw error;
  }
  await file(() => syncDir(dir));
}

function syncDir(dir: string): void {
  if (process.platform === 'win32') return; // folders cannot be opened for fsync there
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
