import { matchesAuditFilter, type AuditEntry, type AuditOperation } from '../shared/audit';

/** One entry of the trail as the receipt cites it: where it is and its SHA-256. */
export interface ReceiptEntry {
  entry: AuditEntry;
  /** 1-based line in audit.jsonl. */
  line: number;
  /** SHA-256 (hex) of the entry, as the chain computes it; null for a line outside the chain. */
  hash: string | null;
}

/** One request of an act: its 'attempted' entry and its outcome entry (either may be missing). */
export interface ReceiptStep {
  operation: AuditOperation;
  attempt?: ReceiptEntry;
  outcome?: ReceiptEntry;
}

export interface ReceiptAct {
  /** null for entries written before acts had ids. */
  actId: string | null;
  /** The first entry: uid, reference, profile, operator, app version, via. */
  first: AuditEntry;
  steps: ReceiptStep[];
  /** The check after a done erasure: its request's 'attempted' entry and the 'verification' entry with the result. */
  verification?: { attempt?: ReceiptEntry; result: ReceiptEntry };
  /** Every entry of the act, in trail order. */
  entries: ReceiptEntry[];
}

/** A request of the register as its receipt names it, with what links acts to it. */
export interface RequestReceiptSubject {
  id: string;
  /** ISO 8601 instant, as registered. */
  receivedAt: string;
  /** The last day to answer (YYYY-MM-DD, the register's time zone); extended when `extended`. */
  deadline: string;
  extended: boolean;
  closed?: { status: 'answered' | 'refused'; at: string };
  actIds: readonly string[];
  batchJobIds: readonly string[];
}

/** What a receipt covers: every act carrying a reference, one act, or every act of a request. */
export type ReceiptSubject = { reference: string } | { actId: string } | { request: RequestReceiptSubject };

/**
 * The acts a receipt covers, in trail order. An act is every entry sharing its
 * actId (a log-out step, an erasure step, a verification); an old entry without
 * an actId pairs with the attempt it answers (same uid, operation and profile).
 */
export function actsForReceipt(entries: readonly ReceiptEntry[], subject: ReceiptSubject): ReceiptAct[] {
  const acts = groupActs(entries);
  if ('actId' in subject) return acts.filter((act) => act.actId === subject.actId);
  if ('request' in subject) return acts.filter((act) => isRequestAct(act, subject.request));
  // The console's and the CLI's filter rule, so a receipt covers exactly the acts the filtered trail shows.
  return acts.filter((act) => act.entries.some(({ entry }) => matchesAuditFilter(entry, { reference: subject.reference })));
}

/** An act linked to the request (by its id or its batch job) or carrying the request's id as its reference; never a change of the register itself. */
function isRequestAct(act: ReceiptAct, request: RequestReceiptSubject): boolean {
  if (act.first.action === 'request') return false;
  if (act.actId !== null && request.actIds.includes(act.actId)) return true;
  if (act.entries.some(({ entry }) => entry.jobId !== undefined && request.batchJobIds.includes(entry.jobId))) return true;
  return act.entries.some(({ entry }) => matchesAuditFilter(entry, { reference: request.id }));
}

function groupActs(entries: readonly ReceiptEntry[]): ReceiptAct[] {
  const acts: ReceiptAct[] = [];
  const byId = new Map<string, ReceiptAct>();
  const openLegacy: ReceiptAct[] = [];
  for (const cited of entries) {
    const { entry } = cited;
    let act: ReceiptAct | undefined;
    if (entry.actId) {
      act = byId.get(entry.actId);
    } else if (entry.outcome !== 'attempted') {
      const index = openLegacy.findIndex(({ first }) => first.uid === entry.uid && first.action === entry.action && first.profileId === entry.profileId);
      if (index >= 0) act = openLegacy.splice(index, 1)[0];
    }
    if (!act) {
      act = { actId: entry.actId ?? null, first: entry, steps: [], entries: [] };
      acts.push(act);
      if (entry.actId) byId.set(entry.actId, act);
      else if (entry.outcome === 'attempted') openLegacy.push(act);
    }
    addToAct(act, cited);
  }
  return acts;
}

function addToAct(act: ReceiptAct, cited: ReceiptEntry): void {
  act.entries.push(cited);
  const { entry } = cited;
  if (entry.outcome === 'verification') {
    // The check repeats the act: its 'attempted' entry is the open step of the same operation.
    const open = act.steps.findLastIndex((candidate) => candidate.operation === entry.action && candidate.attempt && !candidate.outcome);
    const attempt = open >= 0 ? act.steps.splice(open, 1)[0]?.attempt : undefined;
    act.verification = attempt ? { attempt, result: cited } : { result: cited };
    return;
  }
  if (entry.outcome === 'attempted') {
    act.steps.push({ operation: entry.action, attempt: cited });
    return;
  }
  // An outcome answers the latest attempt of its operation that has none yet.
  const step = act.steps.findLast((candidate) => candidate.operation === entry.action && !candidate.outcome);
  if (step) step.outcome = cited;
  else act.steps.push({ operation: entry.action, outcome: cited });
}
