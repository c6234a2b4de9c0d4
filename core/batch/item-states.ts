/**
 * Where each item of a job stands, folded from its journal events in order (one byte per item: 100,000 items take
 * 100 kB). The one state machine of every job store: the data folder's journal.jsonl (job-state.ts) and the team
 * database's rows (core/team/pg-batch-jobs.ts) feed the same events to it, so both count, resume and retry alike.
 */
import { FINAL_OUTCOMES, type JournalEvent, type StoredPlan } from './job-files';

/**
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
// Set on an item once an attempt may have reached the service, so a later not-sent does not hide it.
const MAY_HAVE_REACHED = 0x80;
const stateName = (code: number): ItemState => ITEM_STATES[code & ~MAY_HAVE_REACHED] ?? 'never-started';

export interface JobState {
  plan: StoredPlan;
  /** Items recorded (a job interrupted while its items were written may have fewer than plan.total). */
  itemCount: number;
  /** False when the run stopped while its items were being recorded (nothing was sent then): start the batch again. */
  itemsComplete: boolean;
  counts: Record<ItemState, number>;
  /** Items not in a final state. */
  unfinished: number;
  /** Highest seq seen (0 when the journal is empty). */
  lastSeq: number;
  /** Lines (or rows) that were not readable events (skipped), and whether the last line was torn (ignored). */
  corruptLines: number[];
  tornTail: boolean;
  stateOf(item: number): ItemState;
  /** Whether an attempt of the item may have reached the service (an unknown outcome, or started twice without one). */
  mayHaveReached(item: number): boolean;
  /** Unfinished items in order, with whether to re-check them as unknown. */
  unfinishedItems(): Generator<{ item: number; state: ItemState; recheckAsUnknown: boolean }>;
}

/** Events folded as they come; `state()` is what they add up to. Final states are sticky: only a 'retry' makes a failed item unfinished. */
export interface ItemTally {
  readonly lastSeq: number;
  apply(event: JournalEvent): void;
  /** A snapshot: later events do not change it. */
  state(found: { plan: StoredPlan; itemCount: number; corruptLines?: number[]; tornTail?: boolean }): JobState;
}

export function createItemTally(total: number): ItemTally {
  const codes = new Uint8Array(total);
  let lastSeq = 0;
  return {
    get lastSeq() {
      return lastSeq;
    },
    apply(event) {
      lastSeq = Math.max(lastSeq, event.seq);
      codes[event.item] = nextCode(codes[event.item] ?? 0, event);
    },
    state({ plan, itemCount, corruptLines = [], tornTail = false }) {
      const snapshot = codes.slice();
      const counts = Object.fromEntries(ITEM_STATES.map((state) => [state, 0])) as Record<ItemState, number>;
      let unfinished = 0;
      for (const code of snapshot) {
        counts[stateName(code)]++;
        if ((code & ~MAY_HAVE_REACHED) < FIRST_FINAL) unfinished++;
      }
      const stateOf = (item: number) => stateName(snapshot[item] ?? 0);
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
        mayHaveReached: (item) => ((snapshot[item] ?? 0) & MAY_HAVE_REACHED) !== 0,
        *unfinishedItems() {
          for (let item = 0; item < snapshot.length; item++) {
            const state = stateOf(item);
            if (CODE[state] < FIRST_FINAL) yield { item, state, recheckAsUnknown: RECHECK_STATES.includes(state) };
          }
        },
      };
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
