/**
 * The results of a batch job: one row per item, in input order, with its final outcome.
 *
 * Memory stays flat with the job's size: one pass over journal.jsonl records, per item, where its
 * final outcome line is (byte offset in a Float64Array, length in a Uint32Array: 12 bytes an
 * item); then items.jsonl is streamed and each item's final line is read back by its offset.
 * No row is held: rows are yielded (or written into the export) one at a time.
 *
 * An item's final outcome is its FIRST final 'outcome' event (done, done-before-interruption,
 * not-found, failed), exactly as readJobState counts it: a final state is sticky, later events
 * of that item are ignored, retry outcomes are not final — except after a 'retry' event of a failed
 * item (batch retry), which clears it: the row shows what the new attempts record (one more byte an
 * item says whether the final outcome is 'failed'). An item with none is 'unfinished'; its
 * reason is then its last attempt's outcome when it had one (not sent, or unknown: what a resume does
 * with it), located the same way (12 more bytes an item).
 */
import { createReadStream, existsSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { BatchCounts, BatchResultOutcome, BatchResultRow, BatchResultsFile } from '../../shared/batch';
import { neutraliseCell } from '../audit-export';
import { FINAL_OUTCOMES, jobPaths, RETRY_OUTCOMES, writeFileAtomic, writeFileAtomicFrom, type JournalEvent, type StoredPlan } from './job-files';
import { fileNotWritten } from '../disk-error';
import { parseEvent, readItems, readPlan } from './job-state';
import { msg, wordInEnglish } from '../../shared/messages';

export type BatchResultsFormat = 'csv' | 'json';

/**
 * CSV columns, in this fixed order (add new ones only at the end: readers of older files find the first ones
 * where they were). `pasted_uid`: the uid as pasted, when the operator chose to send its trimmed form (`uid`).
 */
export const BATCH_RESULTS_CSV_COLUMNS = ['line', 'uid', 'reference', 'outcome', 'status', 'request_id', 'reason', 'at', 'pasted_uid'] as const;
export const BATCH_RESULTS_FORMAT = 'privacy-desk-batch-results/1';

const FINAL: readonly string[] = FINAL_OUTCOMES;
const RETRY: readonly string[] = RETRY_OUTCOMES;

/** Streams the job's rows in input order; throws INVALID_INPUT when there is no such job. */
export async function* readResults(dataDir: string, batchId: string): AsyncGenerator<BatchResultRow> {
  const plan = readPlan(dataDir, batchId);
  const paths = jobPaths(dataDir, batchId);
  const finals = await locateFinalOutcomes(paths.journal, plan.total);
  const journal = new LineReader(paths.journal);
  try {
    for await (const item of readItems(dataDir, batchId)) {
      const row: BatchResultRow = { line: item.line, uid: item.uid, ...(item.pastedUid !== undefined ? { pastedUid: item.pastedUid } : {}), outcome: 'unfinished' };
      const reference = item.reference ?? plan.reference;
      if (reference !== undefined) row.reference = reference;
      const offset = finals.offsets[item.index] ?? 0;
      const retryOffset = finals.retryOffsets[item.index] ?? 0;
      if (offset > 0) {
        // Offsets are stored plus one, so that 0 means "no final outcome".
        const event = parseEvent(await journal.read(offset - 1, finals.lengths[item.index] ?? 0), plan.total);
        if (event) Object.assign(row, outcomeFields(event));
      } else if (retryOffset > 0) {
        const event = parseEvent(await journal.read(retryOffset - 1, finals.retryLengths[item.index] ?? 0), plan.total);
        if (event) Object.assign(row, lastAttemptReason(event));
      }
      yield row;
    }
  } finally {
    await journal.close();
  }
}

/**
 * Reads lines by offset through a window of the file: outcomes are mostly written in the order
 * the items were sent, so one read serves hundreds of rows (one read per row took seconds for 100,000).
 */
class LineReader {
  #file: FileHandle | null = null;
  #window = Buffer.alloc(256 * 1024);
  #windowStart = 0;
  #windowLength = 0;

  constructor(private readonly path: string) {}

  async read(offset: number, length: number): Promise<string> {
    const end = offset + length;
    if (offset < this.#windowStart || end > this.#windowStart + this.#windowLength) {
      this.#file ??= await open(this.path, 'r');
      if (this.#window.length < length) this.#window = Buffer.alloc(length);
      const { bytesRead } = await this.#file.read(this.#window, 0, this.#window.length, offset);
      this.#windowStart = offset;
      this.#windowLength = bytesRead;
    }
    const from = offset - this.#windowStart;
    return this.#window.toString('utf8', from, Math.min(from + length, this.#windowLength));
  }

  async close(): Promise<void> {
    await this.#file?.close();
    this.#file = null;
  }
}

function outcomeFields(event: JournalEvent): Partial<BatchResultRow> {
  const fields: Partial<BatchResultRow> = { outcome: event.outcome as BatchResultOutcome };
  if (event.status !== undefined) fields.status = event.status;
  if (event.requestId !== undefined) fields.requestId = event.requestId;
  if (event.reason !== undefined) fields.reason = event.reason;
  if (event.reasonText !== undefined) fields.reasonText = event.reasonText;
  fields.at = event.at;
  return fields;
}

/** An unfinished item's reason: how its last attempt ended, and what a resume does with it (in English, and as a message). */
function lastAttemptReason(event: JournalEvent): Pick<BatchResultRow, 'reason' | 'reasonText'> {
  // A line from before reasons were messages keeps its English words, as data.
  const why = event.reasonText ?? (event.reason !== undefined && event.reason.trim() !== '' ? event.reason.trim().replace(/\.$/, '') : undefined);
  const unknown = event.outcome === 'unknown-retry';
  const reasonText =
    why === undefined ? msg(unknown ? 'batch.reason.lastUnknown' : 'batch.reason.lastNotSent') : msg(unknown ? 'batch.reason.lastUnknownBecause' : 'batch.reason.lastNotSentBecause', { why: typeof why === 'string' ? msg('batch.reason.recorded', { words: why }) : why });
  return { reason: wordInEnglish(reasonText), reasonText };
}

interface OutcomeLines {
  /** Each item's first final outcome line: offset + 1 (0 = none) and byte length. */
  offsets: Float64Array;
  lengths: Uint32Array;
  /** Each item's last retry outcome line (not sent, or unknown), the same way. */
  retryOffsets: Float64Array;
  retryLengths: Uint32Array;
  /** 1 when the item's final outcome is 'failed': a 'retry' event clears only that one. */
  failed: Uint8Array;
}

async function locateFinalOutcomes(journalPath: string, total: number): Promise<OutcomeLines> {
  const lines: OutcomeLines = { offsets: new Float64Array(total), lengths: new Uint32Array(total), retryOffsets: new Float64Array(total), retryLengths: new Uint32Array(total), failed: new Uint8Array(total) };
  await forEachLineAt(journalPath, (bytes, offset) => {
    // Cheap test first: most lines are 'started' events.
    if (bytes.indexOf('"outcome"') < 0 && bytes.indexOf('"retry"') < 0) return;
    const event = parseEvent(bytes.toString('utf8'), total);
    if (!event || event.kind === 'started') return;
    if (event.kind === 'retry') {
      // A failed item sent again: its row shows what the new attempts record, not the old failure.
      if (lines.failed[event.item] !== 1) return;
      lines.failed[event.item] = 0;
      lines.offsets[event.item] = 0;
      lines.lengths[event.item] = 0;
      lines.retryOffsets[event.item] = 0;
      lines.retryLengths[event.item] = 0;
      return;
    }
    if (RETRY.includes(event.outcome ?? '')) {
      lines.retryOffsets[event.item] = offset + 1; // the last one stands
      lines.retryLengths[event.item] = bytes.length;
      return;
    }
    if (!FINAL.includes(event.outcome ?? '')) return;
    if (lines.offsets[event.item] !== 0) return; // sticky: the first final outcome stands
    lines.offsets[event.item] = offset + 1;
    lines.lengths[event.item] = bytes.length;
    lines.failed[event.item] = event.outcome === 'failed' ? 1 : 0;
  });
  return lines;
}

/**
 * Calls `onLine` with every complete line's bytes and byte offset. A last line without its
 * newline is torn (a crash mid-write): ignored, as readJobState does.
 */
async function forEachLineAt(path: string, onLine: (bytes: Buffer, offset: number) => void): Promise<void> {
  if (!existsSync(path)) return;
  let position = 0;
  let carried: Buffer[] = [];
  let carriedFrom = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline >= 0; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      if (carried.length > 0) {
        onLine(Buffer.concat([...carried, piece]), carriedFrom);
        carried = [];
      } else {
        onLine(piece, position + start);
      }
      start = newline + 1;
    }
    if (start < chunk.length) {
      if (carried.length === 0) carriedFrom = position + start;
      carried.push(chunk.subarray(start));
    }
    position += chunk.length;
  }
}

const COUNT_KEYS: Record<BatchResultOutcome, keyof BatchCounts> = {
  done: 'done',
  'done-before-interruption': 'doneBeforeInterruption',
  'not-found': 'notFound',
  failed: 'failed',
  unfinished: 'unfinished',
};

function csvCells(row: BatchResultRow): string[] {
  const cells = [row.line, row.uid, row.reference, row.outcome, row.status, row.requestId, row.reason, row.at, row.pastedUid];
  return cells.map((cell) => neutraliseCell(cell === undefined ? '' : String(cell)));
}

/** Rows stringified this many at a time: few calls, and never every row's cells at once. */
const CSV_GROUP = 1000;

/** The CSV a group of rows at a time: the header row, then every row; `tally.rows` counts them as they go. */
async function* csvPieces(dataDir: string, batchId: string, tally: { rows: number }): AsyncGenerator<string> {
  let group: string[][] = [[...BATCH_RESULTS_CSV_COLUMNS]];
  for await (const row of readResults(dataDir, batchId)) {
    tally.rows++;
    group.push(csvCells(row));
    if (group.length >= CSV_GROUP) {
      yield stringify(group, { record_delimiter: 'windows' });
      group = [];
    }
  }
  if (group.length > 0) yield stringify(group, { record_delimiter: 'windows' });
}

/**
 * The results as a file. CSV: a header row (BATCH_RESULTS_CSV_COLUMNS), CRLF line ends, every
 * cell neutralised against spreadsheet formulas. JSON: { format, batchId, action, profileName,
 * baseUrl, reference?, source, createdAt, exportedAt, total, counts, rows } with one row per line.
 */
export async function exportResults(
  dataDir: string,
  batchId: string,
  format: BatchResultsFormat,
  options: { now?: () => Date } = {},
): Promise<BatchResultsFile> {
  const plan = readPlan(dataDir, batchId);
  const parts: string[] = [];
  const counts: BatchCounts = { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 };
  let rows = 0;
  if (format === 'csv') {
    const tally = { rows: 0 };
    for await (const piece of csvPieces(dataDir, batchId, tally)) parts.push(piece);
    return { fileName: `privacy-desk-batch-${batchId}.csv`, mimeType: 'text/csv;charset=utf-8', content: parts.join(''), rows: tally.rows };
  }
  for await (const row of readResults(dataDir, batchId)) {
    parts.push(`${rows === 0 ? '' : ',\n'}    ${JSON.stringify(row)}`);
    rows++;
    counts[COUNT_KEYS[row.outcome]]++;
  }
  const head = JSON.stringify(jsonHead(plan, batchId, (options.now ?? (() => new Date()))(), counts), null, 2);
  // The head's closing brace is replaced by the rows array, one row per line.
  const content = `${head.slice(0, -2)},\n  "rows": [\n${parts.join('')}${rows === 0 ? '' : '\n'}  ]\n}\n`;
  return { fileName: `privacy-desk-batch-${batchId}.json`, mimeType: 'application/json', content, rows };
}

function jsonHead(plan: StoredPlan, batchId: string, exportedAt: Date, counts: BatchCounts) {
  return {
    format: BATCH_RESULTS_FORMAT,
    batchId,
    action: plan.action,
    profileName: plan.profileName,
    baseUrl: plan.baseUrl,
    ...(plan.reference === undefined ? {} : { reference: plan.reference }),
    source: plan.source,
    createdAt: plan.createdAt,
    exportedAt: exportedAt.toISOString(),
    total: plan.total,
    counts,
  };
}

/** Writes the export into the job's folder (`results.csv` or `results.json`, owner-only, atomically) and returns its path. */
export async function writeResultsFile(dataDir: string, batchId: string, format: BatchResultsFormat, options: { now?: () => Date } = {}): Promise<string> {
  readPlan(dataDir, batchId); // no such job: said before any file is made
  const { dir } = jobPaths(dataDir, batchId);
  const path = join(dir, `results.${format}`);
  // A full disk or a read-only folder: typed, with what to do.
  const writeFailed = (error: unknown) => fileNotWritten(path, error);
  if (format === 'csv') {
    // Written as it is read: the CLI writes this file after every run, and 100,000 rows at once took 40 MB more.
    await writeFileAtomicFrom(path, dir, csvPieces(dataDir, batchId, { rows: 0 }), writeFailed);
    return path;
  }
  const { content } = await exportResults(dataDir, batchId, format, options);
  try {
    writeFileAtomic(path, dir, content);
  } catch (error) {
    throw writeFailed(error);
  }
  return path;
}
