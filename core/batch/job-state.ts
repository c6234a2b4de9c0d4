import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PrivacyDeskError } from '../../shared/errors';
import { BatchFileError, batchItemSchema, damagedBatchFile, journalEventSchema, parseBatchFile, storedPlanSchema } from './batch-file-schemas';
import { JOB_ID_PATTERN, jobPaths, type BatchItem, type JournalEvent, type StoredPlan } from './job-files';
import { createItemTally, type JobState } from './item-states';
import { msg } from '../../shared/messages';

export { ITEM_STATES, RECHECK_STATES, type ItemState, type JobState } from './item-states';

export function readPlan(dataDir: string, jobId: string): StoredPlan {
  if (!JOB_ID_PATTERN.test(jobId)) throw jobNotFound(dataDir, jobId);
  const paths = jobPaths(dataDir, jobId);
  const { plan } = paths;
  if (!existsSync(plan)) {
    // A job's items and journal are written only after its plan: without it, the plan was removed.
    if (existsSync(paths.items) || existsSync(paths.journal)) throw damagedBatchFile({ path: plan, why: msg('batch.file.missing') });
    throw jobNotFound(dataDir, jobId);
  }
  let text: string;
  try {
    text = readFileSync(plan, 'utf8');
  } catch (error) {
    // The system's code (EACCES…) apart, when it gave one.
    const code = (error as NodeJS.ErrnoException).code;
    throw new BatchFileError({ path: plan, why: msg('batch.file.unreadable'), ...(code ? { detail: code } : {}), unreadable: true }, msg('batch.planUnreadable', { job: jobId, path: plan }), { cause: error });
  }
  // Parsed, not cast: the plan's action decides what is sent.
  const stored = parseBatchFile(storedPlanSchema, text, plan);
  if (stored.jobId !== jobId) throw damagedBatchFile({ path: plan, why: msg('batch.file.otherJob', { job: stored.jobId }) });
  return stored;
}

/** The journal's lines that are not events of the job, as the error that stops a resume (and marks the job damaged in the list). */
export function journalDamage(dataDir: string, jobId: string, corruptLines: readonly number[]): BatchFileError {
  return damagedBatchFile({ path: jobPaths(dataDir, jobId).journal, line: corruptLines[0] as number, why: msg('batch.file.notEvent', { count: corruptLines.length }) });
}

/**
 * Streams journal.jsonl into one byte per item (a Uint8Array: 100,000 items take 100 kB), so
 * memory stays flat whatever the journal's length. A torn last line is ignored; corrupt lines are
 * skipped and listed. Final states are sticky: no later event makes a done item unfinished (only a 'retry', a failed one).
 */
export async function readJobState(dataDir: string, jobId: string): Promise<JobState> {
  const plan = readPlan(dataDir, jobId);
  const paths = jobPaths(dataDir, jobId);
  const itemCount = await countLines(paths.items);
  const tally = createItemTally(plan.total);
  const corruptLines: number[] = [];
  const tornTail = await forEachLine(paths.journal, (text, line) => {
    const event = parseEvent(text, plan.total);
    if (!event) return void corruptLines.push(line);
    tally.apply(event);
  });
  return tally.state({ plan, itemCount, corruptLines, tornTail });
}

/** One journal line as an event (journalEventSchema, an item of the job), or null when it is not one (readJobState lists it as corrupt). */
export function parseEvent(text: string, total: number): JournalEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = journalEventSchema.safeParse(value);
  return parsed.success && parsed.data.item < total ? parsed.data : null;
}

/** Calls `onLine` for every complete non-empty line (1-based numbers); returns whether the last line was torn. */
async function forEachLine(path: string, onLine: (text: string, line: number) => void): Promise<boolean> {
  if (!existsSync(path)) return false;
  // readline drops the newline, so a torn last line is told apart by the file's last byte.
  let lastByte = 0x0a;
  const stream = createReadStream(path);
  stream.on('data', (chunk) => {
    if (chunk.length > 0) lastByte = (chunk as Buffer)[chunk.length - 1] ?? 0x0a;
  });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  const pending: string[] = [];
  let line = 0;
  for await (const text of lines) {
    line++;
    // Hold each line back by one: the last one may be torn, which is only known at the end.
    if (pending.length > 0) handle(pending.pop() as string, line - 1);
    pending.push(text);
  }
  const torn = lastByte !== 0x0a;
  const last = pending.pop();
  if (last !== undefined && !torn) handle(last, line);
  return torn;

  function handle(text: string, number: number) {
    if (text.trim()) onLine(text, number);
  }
}

async function countLines(path: string): Promise<number> {
  let count = 0;
  await forEachLine(path, () => void count++);
  return count;
}

/**
 * Streams items.jsonl in order (index = position), skipping a torn last line (never acknowledged, as
 * readJobState counts). Every other line is parsed against batchItemSchema: a bad one throws
 * damagedBatchFile, naming the file and the line.
 */
export async function* readItems(dataDir: string, jobId: string): AsyncGenerator<BatchItem & { index: number }> {
  const { items } = jobPaths(dataDir, jobId);
  if (!existsSync(items)) return;
  // readline drops the newline, so a torn last line is told apart by the file's last byte (as forEachLine does).
  let lastByte = 0x0a;
  const stream = createReadStream(items);
  stream.on('data', (chunk) => {
    if (chunk.length > 0) lastByte = (chunk as Buffer)[chunk.length - 1] ?? 0x0a;
  });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let index = 0;
  let line = 0;
  let held: { text: string; line: number } | undefined;
  for await (const text of lines) {
    line++;
    // Hold each line back by one: the last one may be torn, which is only known at the end.
    if (held) yield { ...parseBatchFile(batchItemSchema, held.text, items, held.line), index: index++ };
    held = text.trim() ? { text, line } : undefined;
  }
  if (held && lastByte === 0x0a) yield { ...parseBatchFile(batchItemSchema, held.text, items, held.line), index };
}

function jobNotFound(dataDir: string, jobId: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'INVALID_INPUT', outcome: 'not-sent', text: msg('batch.noSuchJob', { job: jobId, dataDir }) });
}

/**
 * The journal's events in file order (a job copied into the team database: core/team/pg-batch-import.ts). A torn last
 * line is left out (never acknowledged); any other line that is not an event of the job throws the job's damage.
 */
export async function* readJournalEvents(dataDir: string, jobId: string): AsyncGenerator<JournalEvent> {
  const plan = readPlan(dataDir, jobId);
  const { journal } = jobPaths(dataDir, jobId);
  if (!existsSync(journal)) return;
  let lastByte = 0x0a;
  const stream = createReadStream(journal);
  stream.on('data', (chunk) => {
    if (chunk.length > 0) lastByte = (chunk as Buffer)[chunk.length - 1] ?? 0x0a;
  });
  let line = 0;
  let held: { text: string; line: number } | undefined;
  const eventOf = ({ text, line: at }: { text: string; line: number }) => parseEvent(text, plan.total) ?? Promise.reject(journalDamage(dataDir, jobId, [at]));
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    line++;
    // Hold each line back by one: the last one may be torn, which is only known at the end.
    if (held) yield await eventOf(held);
    held = text.trim() ? { text, line } : undefined;
  }
  if (held && lastByte === 0x0a) yield await eventOf(held);
}
