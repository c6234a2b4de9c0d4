/**
 * Reading team jobs from the team database, paged (never a whole journal in one answer): a job's plan, its items in
 * order, where each item stands (the same tally as the data folder's: core/batch/item-states.ts) and its results rows.
 * Rows are checked as the data folder's files are (batch-file-schemas.ts): the plan decides what is sent.
 *
 * Where items stand is kept per job and read on from the last event seen: events are only ever appended, each job's
 * numbered in commit order (one writer at a time: its lease), so the console's list, read every few seconds while
 * another desktop runs a 100,000-item job, reads only what was committed since.
 */
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { BatchResultRow } from '../../shared/batch';
import { batchItemSchema, damagedBatchFile, describeIssues, journalEventSchema, storedPlanSchema } from '../batch/batch-file-schemas';
import { createItemTally, type ItemTally, type JobState } from '../batch/item-states';
import { JOB_ID_PATTERN, type BatchItem, type JournalEvent, type StoredPlan } from '../batch/job-files';
import { createOutcomeLocator, resultRow } from '../batch/results-rows';
import { teamStoreError, type TeamDatabase } from './team-database';

const PAGE = 5_000;

export function jobRowsWhere(db: TeamDatabase, jobId: string, table: 'batch_jobs' | 'batch_items' | 'batch_events'): string {
  return `${db.where} (${table}, batch job ${jobId})`;
}

/** Every read goes through here: a database out of reach is said as such (nothing was sent). */
export async function query<Row extends object>(db: TeamDatabase, text: string, values: unknown[]): Promise<Row[]> {
  try {
    return (await db.pool.query<Row>(text, values)).rows;
  } catch (error) {
    throw teamStoreError(db.where, error, 'connect');
  }
}

export function jobNotFound(db: TeamDatabase, jobId: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'INVALID_INPUT', outcome: 'not-sent', text: msg('batch.noSuchJob', { job: jobId, dataDir: db.where }) });
}

export function planOf(db: TeamDatabase, jobId: string, value: unknown): StoredPlan {
  const parsed = storedPlanSchema.safeParse(value);
  const path = jobRowsWhere(db, jobId, 'batch_jobs');
  if (!parsed.success) throw damagedBatchFile({ path, why: msg('batch.file.notAsWritten'), detail: describeIssues(parsed.error) });
  if (parsed.data.jobId !== jobId) throw damagedBatchFile({ path, why: msg('batch.file.otherJob', { job: parsed.data.jobId }) });
  return parsed.data;
}

export async function readPgPlan(db: TeamDatabase, jobId: string): Promise<StoredPlan> {
  if (!JOB_ID_PATTERN.test(jobId)) throw jobNotFound(db, jobId);
  const [row] = await query<{ plan: unknown }>(db, 'SELECT plan FROM batch_jobs WHERE job_id = $1', [jobId]);
  if (!row) throw jobNotFound(db, jobId);
  return planOf(db, jobId, row.plan);
}

/** The job's items in order; a row that is not an item throws damagedBatchFile naming it (its index + 1 as the line). */
export async function* readPgItems(db: TeamDatabase, jobId: string): AsyncGenerator<BatchItem & { index: number }> {
  for (let from = 0; ; ) {
    const rows = await query<{ idx: number; item: unknown }>(db, 'SELECT idx, item FROM batch_items WHERE job_id = $1 AND idx >= $2 ORDER BY idx LIMIT $3', [jobId, from, PAGE]);
    for (const row of rows) {
      const parsed = batchItemSchema.safeParse(row.item);
      if (!parsed.success || row.idx !== from) {
        throw damagedBatchFile({ path: jobRowsWhere(db, jobId, 'batch_items'), line: from + 1, why: msg('batch.file.notAsWritten'), ...(parsed.success ? {} : { detail: describeIssues(parsed.error) }) });
      }
      yield { ...parsed.data, index: from++ };
    }
    if (rows.length < PAGE) return;
  }
}

/** The event of a row, or null when it is not one of this job's (counted as corrupt, as a bad journal line is). */
function eventOf(row: { seq: string; event: unknown }, total: number): JournalEvent | null {
  const parsed = journalEventSchema.safeParse(row.event);
  return parsed.success && parsed.data.item < total && String(parsed.data.seq) === String(row.seq) ? parsed.data : null;
}

/** Calls `onEvent` for each of the job's events after `afterSeq`, in order, a page at a time; `onlyKinds` narrows. */
async function forEachEvent(db: TeamDatabase, jobId: string, afterSeq: number, total: number, onEvent: (event: JournalEvent | null, seq: number) => void, skipStarted = false): Promise<void> {
  for (let after = afterSeq; ; ) {
    const rows = await query<{ seq: string; event: unknown }>(
      db,
      `SELECT seq, event FROM batch_events WHERE job_id = $1 AND seq > $2 ${skipStarted ? "AND kind <> 'started'" : ''} ORDER BY seq LIMIT $3`,
      [jobId, after, PAGE],
    );
    for (const row of rows) {
      after = Number(row.seq);
      onEvent(eventOf(row, total), after);
    }
    if (rows.length < PAGE) return;
  }
}

interface Tallied {
  plan: StoredPlan;
  tally: ItemTally;
  readThrough: number;
  corrupt: number[];
  itemCount: number;
}

/** Where each item of a job stands, read on from what was read before (one reader at a time per job). */
export function createJobStates(db: TeamDatabase) {
  const kept = new Map<string, Tallied>();
  const turns = new Map<string, Promise<unknown>>();

  async function read(jobId: string, plan?: StoredPlan): Promise<JobState> {
    let job = kept.get(jobId);
    if (!job) {
      const found = plan ?? (await readPgPlan(db, jobId));
      job = { plan: found, tally: createItemTally(found.total), readThrough: 0, corrupt: [], itemCount: 0 };
    }
    const tallied = job;
    // Items are recorded once, when the job is created: a complete list is not counted again.
    if (tallied.itemCount < tallied.plan.total) {
      const [row] = await query<{ count: string }>(db, 'SELECT count(*) AS count FROM batch_items WHERE job_id = $1', [jobId]);
      tallied.itemCount = Number(row?.count ?? 0);
    }
    await forEachEvent(db, jobId, tallied.readThrough, tallied.plan.total, (event, seq) => {
      tallied.readThrough = seq;
      if (event) tallied.tally.apply(event);
      else tallied.corrupt.push(seq);
    });
    kept.set(jobId, tallied);
    return tallied.tally.state({ plan: tallied.plan, itemCount: tallied.itemCount, corruptLines: [...tallied.corrupt] });
  }

  return {
    /** The job's state now; `plan` when the caller has just read it (the list). */
    readJobState(jobId: string, plan?: StoredPlan): Promise<JobState> {
      const turn = (turns.get(jobId) ?? Promise.resolve()).catch(() => undefined).then(() => read(jobId, plan));
      turns.set(jobId, turn);
      return turn;
    },
  };
}

/**
 * The job's rows in input order: one pass over its outcome and retry events locates each item's row event by seq
 * (results-rows.ts), then items are read a page at a time with the events their rows need.
 */
export async function* readPgResults(db: TeamDatabase, jobId: string): AsyncGenerator<BatchResultRow> {
  const plan = await readPgPlan(db, jobId);
  const locator = createOutcomeLocator(plan.total);
  await forEachEvent(db, jobId, 0, plan.total, (event, seq) => event && locator.see(event, { position: seq, length: 0 }), true);
  let page: Array<BatchItem & { index: number }> = [];
  const flush = async function* () {
    const wanted = page.flatMap((item) => [locator.finalOf(item.index)?.position ?? locator.lastRetryOf(item.index)?.position].filter((seq) => seq !== undefined));
    const events = new Map<number, JournalEvent>();
    if (wanted.length > 0) {
      const rows = await query<{ seq: string; event: unknown }>(db, 'SELECT seq, event FROM batch_events WHERE job_id = $1 AND seq = ANY($2::bigint[])', [jobId, wanted]);
      for (const row of rows) {
        const event = eventOf(row, plan.total);
        if (event) events.set(Number(row.seq), event);
      }
    }
    for (const item of page) {
      const final = locator.finalOf(item.index);
      const retry = final ? null : locator.lastRetryOf(item.index);
      yield resultRow(item, plan, final ? (events.get(final.position) ?? null) : null, retry ? (events.get(retry.position) ?? null) : null);
    }
    page = [];
  };
  for await (const item of readPgItems(db, jobId)) {
    page.push(item);
    if (page.length >= PAGE) yield* flush();
  }
  yield* flush();
}
