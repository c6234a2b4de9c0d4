/**
 * A team job's journal (the Journal of core/batch/journal.ts) on the team database, with journal.ts's promise:
 * - recordStarted(items) commits their 'started' rows (and any buffered outcomes) in ONE transaction and resolves
 *   only after COMMIT: the runner sends an item only then.
 * - recordOutcome() buffers; the buffer is committed with the next recordStarted, when it holds `flushEvery`
 *   outcomes, on flush()/close(), and every `flushIntervalMs` — so other desktops see the counts move.
 * - Every write renews the job's lease in the same transaction and commits only while the lease is this run's
 *   (pg-batch-lease.ts): a run that lost it writes nothing more, and its signal aborts.
 * - A write that failed (the database out of reach, the lease lost) leaves nothing half-written (rolled back) and
 *   ends this journal: every later write throws, the run stops; outcomes not committed leave their items 'started',
 *   re-checked by the next run. Nothing recorded done is sent again.
 */
import type pg from 'pg';
import type { BatchItem, JournalEvent, StoredPlan } from '../batch/job-files';
import type { Journal, JournalOptions, OutcomeRecord } from '../batch/journal';
import type { PgLease } from './pg-batch-lease';
import { teamStoreError, type TeamDatabase } from './team-database';

export interface PgJournalOptions extends JournalOptions {
  /** Buffered outcomes are committed at least this often while a run goes on (default 2 s). */
  flushIntervalMs?: number;
}

export interface PgJournalStart {
  nextSeq: number;
  itemCount: number;
  itemsFinished: boolean;
}

type Unnumbered = Omit<JournalEvent, 'seq'>;

export function openPgJournal(db: TeamDatabase, plan: StoredPlan, lease: PgLease, start: PgJournalStart, options: PgJournalOptions = {}): Journal {
  const now = options.now ?? (() => new Date());
  const flushEvery = options.flushEvery ?? 64;
  let itemCount = start.itemCount;
  let itemsFinished = start.itemsFinished;
  let seq = start.nextSeq;
  let buffered: Unnumbered[] = [];
  let broken: unknown = null;
  // Writes go one after another: seq order is commit order.
  let queue: Promise<void> = Promise.resolve();
  const serial = (step: () => Promise<void>) => {
    const run = queue.then(step);
    queue = run.catch(() => undefined);
    return run;
  };
  const write = async (task: (client: pg.PoolClient) => Promise<void>) => {
    lease.signal.throwIfAborted();
    if (broken) throw broken;
    try {
      await db.transaction(async (client) => {
        await lease.fence(client);
        await task(client);
      });
    } catch (error) {
      broken = lease.signal.aborted ? lease.signal.reason : teamStoreError(db.where, error);
      throw broken;
    }
  };
  const writeEvents = async (events: Unnumbered[]) => {
    if (events.length === 0) return;
    const first = seq;
    // Not committed (it throws): these outcomes are lost with the run; their items stay 'started', re-checked by the next run.
    await write((client) => insertEvents(client, db, plan.jobId, events, first));
    seq += events.length;
  };
  const takeBuffer = () => {
    const events = buffered;
    buffered = [];
    return events;
  };
  const flushBuffer = () => writeEvents(takeBuffer());
  const timer = setInterval(() => {
    if (buffered.length > 0 && !broken) serial(flushBuffer).catch(() => undefined);
  }, options.flushIntervalMs ?? 2_000);
  timer.unref();
  const at = () => now().toISOString();
  const assertItem = (item: number) => {
    if (!Number.isInteger(item) || item < 0 || item >= itemCount) throw new Error(`No item ${item} in this batch job (${itemCount} items)`);
  };

  return {
    jobId: plan.jobId,
    plan,
    signal: lease.signal,
    appendItems: (items) =>
      serial(async () => {
        if (itemsFinished) throw new Error('Items are already finished for this job');
        if (itemCount + items.length > plan.total) throw new Error(`Batch job ${plan.jobId} has only ${plan.total} items`);
        const from = itemCount;
        await write((client) => insertItems(client, plan.jobId, items, from));
        itemCount += items.length;
      }),
    finishItems: () =>
      serial(async () => {
        if (itemsFinished) return;
        if (itemCount !== plan.total) throw new Error(`Batch job ${plan.jobId} expects ${plan.total} items, got ${itemCount}`);
        itemsFinished = true; // each appendItems committed its rows
      }),
    recordStarted: (items) =>
      serial(async () => {
        if (!itemsFinished) throw new Error('Call finishItems() before starting items');
        for (const item of items) assertItem(item);
        await writeEvents([...takeBuffer(), ...items.map((item): Unnumbered => ({ at: at(), item, kind: 'started' }))]);
      }),
    recordRetry: (items) =>
      serial(async () => {
        if (!itemsFinished) throw new Error('Call finishItems() before retrying items');
        for (const { item } of items) assertItem(item);
        await writeEvents([...takeBuffer(), ...items.map(({ item, recheck }): Unnumbered => ({ at: at(), item, kind: 'retry', recheck }))]);
      }),
    recordOutcome: (record) => {
      assertItem(record.item);
      buffered.push({ at: at(), item: record.item, kind: 'outcome', ...outcomeFields(record) });
      return buffered.length >= flushEvery ? serial(flushBuffer) : Promise.resolve();
    },
    flush: () => serial(flushBuffer),
    // In the order of the writes: once a later flush() resolves, every desktop reads the run paused (or stopping).
    setPaused: (paused) => void serial(() => lease.setPaused(paused)),
    setStopping: () => void serial(() => lease.setStopping()),
    close: async () => {
      clearInterval(timer);
      try {
        await serial(flushBuffer);
      } finally {
        await lease.release();
      }
    },
  };
}

/** The rows of `items`, indexes from `from`, in one statement. */
async function insertItems(client: pg.PoolClient, jobId: string, items: readonly BatchItem[], from: number): Promise<void> {
  if (items.length === 0) return;
  await client.query('INSERT INTO batch_items (job_id, idx, item) SELECT $1, idx, item::jsonb FROM unnest($2::int[], $3::text[]) AS t(idx, item)', [
    jobId,
    items.map((_, index) => from + index),
    items.map((item) => JSON.stringify(item)),
  ]);
}

/** The events numbered from `first`, in one statement. */
export async function insertEvents(client: pg.PoolClient, db: Pick<TeamDatabase, 'desktop'>, jobId: string, events: readonly Unnumbered[] | readonly JournalEvent[], first: number): Promise<void> {
  const numbered = events.map((event, index) => ({ seq: first + index, ...event }) as JournalEvent);
  await client.query(
    'INSERT INTO batch_events (job_id, seq, item, kind, event, desktop) SELECT $1, seq, item, kind, event::jsonb, $6 FROM unnest($2::bigint[], $3::int[], $4::text[], $5::text[]) AS t(seq, item, kind, event)',
    [jobId, numbered.map((event) => event.seq), numbered.map((event) => event.item), numbered.map((event) => event.kind), numbered.map((event) => JSON.stringify(event)), db.desktop],
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
