/**
 * The results of a batch job kept in the data folder: one row per item, in input order, with its final outcome
 * (which event makes the row: results-rows.ts; the file: results-export.ts).
 *
 * Memory stays flat with the job's size: one pass over journal.jsonl locates, per item, where its final outcome
 * line is (byte offset and length); then items.jsonl is streamed and each item's line is read back by its offset.
 * No row is held: rows are yielded (or written into the export) one at a time.
 */
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { BatchResultRow, BatchResultsFile } from '../../shared/batch';
import type { BatchJobStore } from './batch-job-store';
import { batchesDir, jobPaths, writeFileAtomic, writeFileAtomicFrom } from './job-files';
import { fileNotWritten } from '../disk-error';
import { parseEvent, readItems, readPlan } from './job-state';
import { BATCH_RESULTS_CSV_COLUMNS, BATCH_RESULTS_FORMAT, resultsCsvPieces, resultsFileOf, type BatchResultsFormat } from './results-export';
import { createOutcomeLocator, resultRow, type EventPlace } from './results-rows';

export { BATCH_RESULTS_CSV_COLUMNS, BATCH_RESULTS_FORMAT, type BatchResultsFormat };

/** Streams the job's rows in input order; throws INVALID_INPUT when there is no such job. */
export async function* readResults(dataDir: string, batchId: string): AsyncGenerator<BatchResultRow> {
  const plan = readPlan(dataDir, batchId);
  const paths = jobPaths(dataDir, batchId);
  const locator = createOutcomeLocator(plan.total);
  await forEachLineAt(paths.journal, (bytes, offset) => {
    // Cheap test first: most lines are 'started' events.
    if (bytes.indexOf('"outcome"') < 0 && bytes.indexOf('"retry"') < 0) return;
    const event = parseEvent(bytes.toString('utf8'), plan.total);
    if (event) locator.see(event, { position: offset, length: bytes.length });
  });
  const journal = new LineReader(paths.journal);
  const eventAt = async (place: EventPlace | null) => (place ? parseEvent(await journal.read(place.position, place.length), plan.total) : null);
  try {
    for await (const item of readItems(dataDir, batchId)) {
      const final = await eventAt(locator.finalOf(item.index));
      yield resultRow(item, plan, final, final ? null : await eventAt(locator.lastRetryOf(item.index)));
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

/** The results as a file: CSV (formula cells neutralised) or JSON (results-export.ts). */
export async function exportResults(dataDir: string, batchId: string, format: BatchResultsFormat, options: { now?: () => Date } = {}): Promise<BatchResultsFile> {
  return resultsFileOf(readPlan(dataDir, batchId), readResults(dataDir, batchId), format, options);
}

/** Where a team job's results file goes on this computer: its job folder is in the team database. */
const TEAM_RESULTS_FOLDER = 'team-results';

/**
 * Writes the export (owner-only, atomically) and returns its path: into the job's folder (`results.csv` or
 * `results.json`) for a job of the data folder; for a job of another store (`jobs`: the team database), into
 * `batches/team-results/<jobId>.results.csv` of this data folder.
 */
export async function writeResultsFile(dataDir: string, batchId: string, format: BatchResultsFormat, options: { now?: () => Date; jobs?: BatchJobStore } = {}): Promise<string> {
  const jobs = options.jobs?.kind === 'team' ? options.jobs : null;
  const plan = jobs ? (await jobs.readJobState(batchId)).plan : readPlan(dataDir, batchId); // no such job: said before any file is made
  const rows = () => (jobs ? jobs.readResults(batchId) : readResults(dataDir, batchId));
  const dir = jobs ? join(batchesDir(dataDir), TEAM_RESULTS_FOLDER) : jobPaths(dataDir, batchId).dir;
  const path = jobs ? join(dir, `${batchId}.results.${format}`) : join(dir, `results.${format}`);
  // A full disk or a read-only folder: typed, with what to do.
  const writeFailed = (error: unknown) => fileNotWritten(path, error);
  if (jobs) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw writeFailed(error);
    }
  }
  if (format === 'csv') {
    // Written as it is read: the CLI writes this file after every run, and 100,000 rows at once took 40 MB more.
    await writeFileAtomicFrom(path, dir, resultsCsvPieces(rows(), { rows: 0 }), writeFailed);
    return path;
  }
  const { content } = await resultsFileOf(plan, rows(), format, options);
  try {
    writeFileAtomic(path, dir, content);
  } catch (error) {
    throw writeFailed(error);
  }
  return path;
}
