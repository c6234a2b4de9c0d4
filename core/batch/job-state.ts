import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PrivacyDeskError } from '../../shared/errors';
import { BatchFileError, batchItemSchema, damagedBatchFile, journalEventSchema, parseBatchFile, storedPlanSchema } from './batch-file-schemas';
import { FINAL_OUTCOMES, JOB_ID_PATTERN, jobPaths, type BatchItem, type JournalEvent, type StoredPlan } from './job-files';
import { msg } from '../../shared/messages';

/**
 * Where an item stands after reading the journal:
 * - 'never-started': no 'started' record; 'retry-not-sent': every attempt so far reached nothing;
 *   both are sent afresh (a 404 then means "not found").
 * - 'in-flight': started with no outcome (a crash, or a run still going): it may have reached the
 *   service, so it is re-checked as unknown; 'retry-unknown': an attempt may have reached it.
 *   Re-checked items send the same act again; a 404 then means "done before the interruption".
 * - the final outcomes: never sent again, except a failed item the operator chose to send again: its
 *   'retry' event makes it 'retry-unknown' (an attempt may have reached the service and no check has seen the
 *   uid since) or 'retry-not-sent' (a fresh send).
 */
export const ITEM_STATES = ['never-started', 'in-flight', 'retry-not-sent', 'retry-unknown', ...FINAL_OUTCOMES] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** States whose item must be sent again as unknown (an earlier attempt may have reached the service). */
export const RECHECK_STATES: readonly ItemState[] = ['in-flight', 'retry-unknown'];

const CODE = Object.fromEntries(ITEM_STATES.map((state, code) => [state, code])) as Record<ItemState, number>;
const FIRST_FINAL = CODE.done;
const stateName = (code: number): ItemState => ITEM_STATES[code & ~MAY_HAVE_REACHED] ?? 'never-started';
// Set on an item once an attempt may have reached the service, so a later not-sent does not hide it.
const MAY_HAVE_REACHED = 0x80;

export interface JobState {
  plan: StoredPlan;
  /** Items in items.jsonl (a job interrupted while its items were written may have fewer than plan.total). */
  itemCount: number;
  /** False when the run stopped while its items were being recorded (nothing was sent then): start the batch again. */
  itemsComplete: boolean;
  counts: Record<ItemState, number>;
  /** Items not in a final state. */
  unfinished: number;
  /** Highest seq seen (0 when the journal is empty). */
  lastSeq: number;
  /** Lines that were not readable events (skipped), and whether the last line was torn (ignored). */
  corruptLines: number[];
  tornTail: boolean;
  stateOf(item: number): ItemState;
  /** Whether an attempt of the item may have reached the service (an unknown outcome, or started twice without one). */
  mayHaveReached(item: number): boolean;
  /** Unfinished items in order, with whether to re-check them as unknown. */
  unfinishedItems(): Generator<{ item: number; state: ItemState; recheckAsUnknown: boolean }>;
}

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
  const codes = new Uint8Array(plan.total);
  const corruptLines: number[] = [];
  let lastSeq = 0;
  const tornTail = await forEachLine(paths.journal, (text, line) => {
    const event = parseEvent(text, plan.total);
    if (!event) return void corruptLines.push(line);
    lastSeq = Math.max(lastSeq, event.seq);
    codes[event.item] = nextCode(codes[event.item] ?? 0, event);
  });
  const counts = Object.fromEntries(ITEM_STATES.map((state) => [state, 0])) as Record<ItemState, number>;
  let unfinished = 0;
  for (const code of codes) {
    counts[stateName(code)]++;
    if ((code & ~MAY_HAVE_REACHED) < FIRST_FINAL) unfinished++;
  }
  const stateOf = (item: number) => stateName(codes[item] ?? 0);
  return {
    plan,
    itemCount,
    itemsComplete: itemCount === plan.total,
    counts,
    unfinished,
    lastSeq,
    corruptLines,
    tornTail,
    stateOf,
    mayHaveReached: (item) => ((codes[item] ?? 0) & MAY_HAVE_REACHED) !== 0,
    *unfinishedItems() {
      for (let item = 0; item < codes.length; item++) {
        const state = stateOf(item);
        if (CODE[state] < FIRST_FINAL) yield { item, state, recheckAsUnknown: RECHECK_STATES.includes(state) };
      }
    },
  };
}

function nextCode(code: number, event: JournalEvent): number {
  const state = code & ~MAY_HAVE_REACHED;
  const reached = code & MAY_HAVE_REACHED;
  // The one way back from a final state: a failed item the operator chose to send again (batch retry).
  if (event.kind === 'retry') {
    if (state !== CODE.failed) return code;
    return event.recheck ? CODE['retry-unknown'] | MAY_HAVE_REACHED : CODE['retry-not-sent'];
  }
  if (state >= FIRST_FINAL) return code;
  // Started again while in flight: the earlier attempt never reported, so it may have gone out.
  if (event.kind === 'started') return CODE['in-flight'] | (state === CODE['in-flight'] ? MAY_HAVE_REACHED : reached);
  const outcome = event.outcome ?? 'unknown-retry';
  if (outcome === 'unknown-retry') return CODE['retry-unknown'] | MAY_HAVE_REACHED;
  if (outcome === 'not-sent-retry') return (reached ? CODE['retry-unknown'] : CODE['retry-not-sent']) | reached;
  // A failed item keeps whether an attempt may have reached the service: sending it again depends on it.
  if (outcome === 'failed') return CODE.failed | (reached || lastAttemptMayHaveReached(event) ? MAY_HAVE_REACHED : 0);
  return CODE[outcome];
}

/**
 * Whether the attempt a failed outcome records may have reached the service: the run said so, or the service
 * answered it a 5xx or a 2xx (whose body said it failed). An item tried once only has no earlier unknown outcome.
 */
function lastAttemptMayHaveReached(event: JournalEvent): boolean {
  if (event.reasonText?.id === 'batch.reason.triedMayHaveReached') return true;
  return event.status !== undefined && (event.status >= 500 || (event.status >= 200 && event.status < 300));
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
