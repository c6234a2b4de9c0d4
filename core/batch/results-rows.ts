/**
 * Which event makes each item's results row, whatever store holds the journal: an item's FIRST final 'outcome'
 * event (done, done-before-interruption, not-found, failed), exactly as the item tally (item-states.ts) counts it:
 * a final state is sticky, later events of that item are ignored, retry outcomes are not final — except after a
 * 'retry' event of a failed item (batch retry), which clears it: the row shows what the new attempts record. An item
 * with none is 'unfinished'; its reason is then its last attempt's outcome when it had one (not sent, or unknown).
 *
 * Events are located, not held: by a position the store can read them back by (a byte offset and length in
 * journal.jsonl, a seq in the team database): 12 bytes an item for each of the two, and one for 'failed'.
 */
import type { BatchResultOutcome, BatchResultRow } from '../../shared/batch';
import { msg, wordInEnglish } from '../../shared/messages';
import { FINAL_OUTCOMES, RETRY_OUTCOMES, type BatchItem, type JournalEvent, type StoredPlan } from './job-files';

const FINAL: readonly string[] = FINAL_OUTCOMES;
const RETRY: readonly string[] = RETRY_OUTCOMES;

export interface EventPlace {
  position: number;
  length: number;
}

export interface OutcomeLocator {
  /** Every event of the job, in journal order. */
  see(event: JournalEvent, place: EventPlace): void;
  /** Where the item's final outcome is, or null (unfinished). */
  finalOf(item: number): EventPlace | null;
  /** Where its last retry outcome (not sent, or unknown) is, or null. */
  lastRetryOf(item: number): EventPlace | null;
}

export function createOutcomeLocator(total: number): OutcomeLocator {
  // Positions are stored plus one, so that 0 means "none".
  const finals = { at: new Float64Array(total), length: new Uint32Array(total) };
  const retries = { at: new Float64Array(total), length: new Uint32Array(total) };
  const failed = new Uint8Array(total);
  const placeIn = (table: typeof finals, item: number): EventPlace | null => {
    const at = table.at[item] ?? 0;
    return at > 0 ? { position: at - 1, length: table.length[item] ?? 0 } : null;
  };
  return {
    see(event, { position, length }) {
      const { item } = event;
      if (event.kind === 'started') return;
      if (event.kind === 'retry') {
        // A failed item sent again: its row shows what the new attempts record, not the old failure.
        if (failed[item] !== 1) return;
        failed[item] = 0;
        finals.at[item] = 0;
        retries.at[item] = 0;
        return;
      }
      if (RETRY.includes(event.outcome ?? '')) {
        retries.at[item] = position + 1; // the last one stands
        retries.length[item] = length;
        return;
      }
      if (!FINAL.includes(event.outcome ?? '')) return;
      if (finals.at[item] !== 0) return; // sticky: the first final outcome stands
      finals.at[item] = position + 1;
      finals.length[item] = length;
      failed[item] = event.outcome === 'failed' ? 1 : 0;
    },
    finalOf: (item) => placeIn(finals, item),
    lastRetryOf: (item) => placeIn(retries, item),
  };
}

/** An item's row: its final outcome when it has one, else 'unfinished' with its last attempt's reason. */
export function resultRow(item: BatchItem, plan: StoredPlan, final: JournalEvent | null, lastRetry: JournalEvent | null): BatchResultRow {
  const row: BatchResultRow = { line: item.line, uid: item.uid, ...(item.pastedUid !== undefined ? { pastedUid: item.pastedUid } : {}), outcome: 'unfinished' };
  const reference = item.reference ?? plan.reference;
  if (reference !== undefined) row.reference = reference;
  if (final) Object.assign(row, outcomeFields(final));
  else if (lastRetry) Object.assign(row, lastAttemptReason(lastRetry));
  return row;
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
