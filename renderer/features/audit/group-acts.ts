import { matchesAuditFilter, type AuditEntry, type AuditFilter, type AuditOperation, type CorruptAuditLine, type VerificationResult } from '../../../shared/audit';
import type { Outcome } from '../../../shared/errors';
import type { MessageText } from '../../../shared/message-text';

/** An audit entry as read, with its 1-based line in audit.jsonl. */
export type LinedAuditEntry = AuditEntry & { line: number };

/**
 * What a row says about an act: an outcome from the outcome model;
 * 'unrecorded' when an attempt has no outcome line (crash, lost connection,
 * full disk: the operator must check the user); 'attempted' only for old
 * entries without an actId, shown as they are; 'acknowledged': an operator's
 * acknowledgement of an anchor finding; 'not-found': an erasure the service refused with a 404 (NOT_FOUND),
 * worded as the batch results word it.
 */
export type ActOutcome = Outcome | 'unrecorded' | 'attempted' | 'summary' | 'acknowledged' | 'not-found';

/** One request of an act (an act may log out first, then erase). */
export interface ActStep {
  operation: AuditOperation;
  outcome: ActOutcome;
}

export interface AuditActRow {
  kind: 'act';
  key: string;
  /** The act's facts: the attempt's (reference, start) with the last outcome's status, request id and error code over them. */
  entry: AuditEntry;
  /** Each request in the order it was made, with its own outcome. */
  steps: ActStep[];
  /** The last step's outcome: what the act came to. */
  outcome: ActOutcome;
  verification?: VerificationResult;
  /** A deliberate test (the logout tester's negative cases). */
  test?: AuditEntry['test'];
  /** When the act started. */
  at: string;
  /** The act's first line in the file: rows are ordered by it, newest last line first. */
  line: number;
  /** Every line of the act's entries: the chain's verdict may leave any of them without a voucher (lineVouching). */
  lines: number[];
}

export interface CorruptRow {
  kind: 'corrupt';
  key: string;
  line: number;
  /** In English; `problemText` words it in the window's language. */
  problem: string;
  problemText?: MessageText;
  excerpt: string;
}

export type AuditRow = AuditActRow | CorruptRow;

interface Step {
  operation: AuditOperation;
  attempt?: LinedAuditEntry;
  outcome?: LinedAuditEntry;
}

interface ActEntries {
  steps: Step[];
  first: LinedAuditEntry;
  lines: number[];
  /** The check after a done erasure: its own attempt (the repeated request), then a 'verification' entry. */
  probe?: LinedAuditEntry;
  verification?: LinedAuditEntry;
}

/**
 * One row per act, newest first: the entries sharing an actId (attempt and
 * outcome of each step, a logout step before an erasure, the check
 * afterwards) collapse into one row. Entries without an actId stay one row
 * each. Corrupt lines become rows of their own at their place in the file.
 */
export function groupAuditRows(entries: readonly LinedAuditEntry[], corrupt: readonly CorruptAuditLine[] = []): AuditRow[] {
  const grouper = createAuditRowGrouper();
  for (const entry of entries) grouper.add(entry);
  return sortAuditRows([...grouper.rows(corrupt)]);
}

/** groupAuditRows in steps: entries added in any number of calls, then each row made one at a time. */
export function createAuditRowGrouper() {
  const acts = new Map<string, ActEntries>();
  const lone: AuditRow[] = [];
  return {
    add(entry: LinedAuditEntry): void {
      if (!entry.actId) {
        lone.push(loneRow(entry));
        return;
      }
      let act = acts.get(entry.actId);
      if (!act) {
        act = { steps: [], first: entry, lines: [] };
        acts.set(entry.actId, act);
      }
      addToAct(act, entry);
    },
    *rows(corrupt: readonly CorruptAuditLine[]): Generator<AuditRow> {
      yield* lone;
      for (const [actId, act] of acts) yield actRow(actId, act);
      for (const bad of corrupt) yield { kind: 'corrupt', key: `corrupt-${bad.line}`, line: bad.line, problem: bad.problem, ...(bad.problemText ? { problemText: bad.problemText } : {}), excerpt: bad.excerpt };
    },
  };
}

/** Newest first: by each row's first line in the file. */
export const sortAuditRows = (rows: AuditRow[]): AuditRow[] => rows.sort((a, b) => b.line - a.line);

function addToAct(act: ActEntries, entry: LinedAuditEntry): void {
  act.lines.push(entry.line);
  if (entry.outcome === 'verification') {
    act.verification = entry;
    return;
  }
  const step = act.steps.findLast((candidate) => candidate.operation === entry.action);
  if (entry.outcome === 'attempted') {
    // The gate never repeats a step: an attempt after a done erasure is the check that the uid is gone.
    if (step?.outcome?.outcome === 'done' && step.operation !== 'logout') act.probe = entry;
    else act.steps.push({ operation: entry.action, attempt: entry });
    return;
  }
  if (act.probe && act.probe.action === entry.action) return; // the check's own answer; its 'verification' entry says what it means
  if (step && !step.outcome) step.outcome = entry;
  else act.steps.push({ operation: entry.action, outcome: entry });
}

/** An entry's outcome as a row says it: a 404 to an erasure is "not found", as in batch results. */
function outcomeOf(entry: LinedAuditEntry): ActOutcome {
  if (entry.outcome === 'verification') return 'done';
  if (entry.outcome === 'refused' && entry.errorCode === 'NOT_FOUND' && (entry.action === 'anonymize' || entry.action === 'delete')) return 'not-found';
  return entry.outcome;
}

function loneRow(entry: LinedAuditEntry): AuditActRow {
  const outcome = outcomeOf(entry);
  return {
    kind: 'act',
    key: `line-${entry.line}`,
    entry,
    steps: [{ operation: entry.action, outcome }],
    outcome,
    ...(entry.verification ? { verification: entry.verification } : {}),
    ...(entry.test ? { test: entry.test } : {}),
    at: entry.at,
    line: entry.line,
    lines: [entry.line],
  };
}

function actRow(actId: string, { steps, first, probe, verification, lines }: ActEntries): AuditActRow {
  const actSteps: ActStep[] = steps.map((step) => ({ operation: step.operation, outcome: step.outcome ? outcomeOf(step.outcome) : 'unrecorded' }));
  const last = steps.at(-1);
  const attempt = steps.find((step) => step.attempt)?.attempt;
  // The erasure step decides the act's facts when there is one; the logout step otherwise.
  const decisive = last?.outcome ?? last?.attempt ?? first;
  const entry: AuditEntry = { ...(attempt ?? first), ...decisive, ...(attempt?.reference ? { reference: attempt.reference } : {}) };
  const test = steps.map((step) => step.attempt?.test ?? step.outcome?.test).find(Boolean);
  // A check that was sent but whose answer was never recorded could not be confirmed.
  const checked = verification?.verification ?? (probe ? 'could-not-check' : undefined);
  return {
    kind: 'act',
    key: `act-${actId}`,
    entry,
    steps: actSteps,
    outcome: actSteps.at(-1)?.outcome ?? 'unrecorded',
    ...(checked ? { verification: checked } : {}),
    ...(test ? { test } : {}),
    at: attempt?.at ?? first.at,
    line: first.line,
    lines,
  };
}

/**
 * The rows a filter keeps: an act is kept whole when any of its entries
 * matches the shared rule (matchesAuditFilter), so a row never shows half an
 * act. Corrupt lines are always shown: nobody can tell which act they held.
 */
export function filterAuditRows(entries: readonly LinedAuditEntry[], corrupt: readonly CorruptAuditLine[], filter: AuditFilter): AuditRow[] {
  if (Object.keys(filter).length === 0) return groupAuditRows(entries, corrupt);
  const acts = new Set<string>();
  const lines = new Set<number>();
  for (const entry of entries) {
    if (!matchesAuditFilter(entry, filter)) continue;
    if (entry.actId) acts.add(entry.actId);
    else lines.add(entry.line);
  }
  return groupAuditRows(
    entries.filter((entry) => (entry.actId ? acts.has(entry.actId) : lines.has(entry.line))),
    corrupt,
  );
}
