import type { ErasureAction } from './users';
import type { ErrorCode, Outcome } from './errors';
import type { NegativeCase } from './logout';
import type { ConformanceCaseId } from './logout-conformance';
import type { MessageText } from './message-text';
import { msg } from './messages';

/**
 * The audit trail: one JSON line per entry in <dataDir>/audit.jsonl, appended
 * under a cross-process lock, each entry chained to its predecessor by SHA-256
 * (core/audit-chain.ts). An act (one operator decision, one actId) writes:
 *   'attempted' before each request, then that request's outcome;
 *   for "log out, then erase": attempted+outcome for the logout step, then for the erasure step;
 *   after a done erasure: a 'verification' entry saying whether the uid still resolves.
 * No secret, no token, no personal data beyond the uid and the reference.
 */
export type AuditStage = 'attempted' | Outcome | 'verification' | 'summary' | 'acknowledged';

/**
 * Which request of an act an entry is about (an act may log out first, then erase); 'batch': a batch job's summary;
 * 'acknowledge': an operator's acknowledgement of an anchor finding (outcome 'acknowledged', uid '');
 * 'request': a change of the request register (outcome 'done', uid '', `register`).
 */
export type AuditOperation = ErasureAction | 'logout' | 'batch' | 'acknowledge' | 'request';

/**
 * On a 'request' entry: which event of the request register (requests.jsonl) it vouches for. The register's line is
 * hashed as stored, so `audit verify` finds an event edited, removed or moved (core/requests/register-check.ts).
 * No personal data: the requester's name and contact never reach the trail.
 */
export interface RegisterAuditRef {
  requestId: string;
  /** What changed: create, update, pause, resume, extend, link, refuse, close, purge. */
  change: string;
  /** The event's number in the register (1, 2, 3… over the whole file). */
  event: number;
  /** SHA-256 (hex) of the event's line as written, without its newline. */
  sha256: string;
}

/** The register compared with the audit trail: every event line has its entry, in order, with the same SHA-256. */
export type RegisterCheck =
  | { ok: true; events: number }
  | {
      ok: false;
      events: number;
      kind: 'edited' | 'removed' | 'reordered' | 'unaudited' | 'corrupt';
      /** 1-based line of requests.jsonl where it shows (for removed: the line the event should be on). */
      line: number;
      /** In English, from `text`. */
      message: string;
      text: MessageText;
    };

/** Whether the trail and the register it vouches for are both intact (the chain, its anchor, and the register). */
export function auditIntact(verdict: ChainVerdict): boolean {
  return verdict.ok && verdict.register?.ok !== false;
}

/**
 * An operator's acknowledgement of a finding of the trail's anchor (core/audit-anchor-check.ts), written as a chained
 * entry like any act: who (the entry's operator), when (its `at`), which finding and why. The finding stays on record;
 * verify passes once every finding that is not a proven crash is acknowledged.
 */
export interface AnchorAcknowledgement {
  /** The finding's id (12 hexadecimal characters: verify lists them). */
  finding: string;
  /** Its kind (rolled-back, unlanded, rewritten, unanchored). */
  kind: string;
  /** What verify said of it then, in English. */
  problem: string;
  /** Why the operator accepts it, as typed. */
  reason: string;
}

/** An acknowledgement's reason: long enough to say something, short enough to print, on one line. */
export const ACKNOWLEDGEMENT_REASON = { min: 10, max: 500 } as const;

/** Why a typed reason cannot be kept (a message), or null when it can. Typing a reason is the acknowledgement: it is never a click. */
export function acknowledgementReasonProblem(reason: string): MessageText | null {
  const trimmed = reason.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(trimmed)) return msg('anchor.ack.reasonControl');
  const length = [...trimmed].length;
  if (length < ACKNOWLEDGEMENT_REASON.min) return msg('anchor.ack.reasonShort', { min: ACKNOWLEDGEMENT_REASON.min });
  if (length > ACKNOWLEDGEMENT_REASON.max) return msg('anchor.ack.reasonLong', { length, max: ACKNOWLEDGEMENT_REASON.max });
  return null;
}

/** A finding id as verify lists it. */
export const FINDING_ID = /^[0-9a-f]{12}$/;

/**
 * Written once each time a batch job's run ends (action 'batch', outcome 'summary', uid ''):
 * its items' own entries carry the jobId; this says what the run came to.
 */
export interface BatchAuditSummary {
  operation: ErasureAction;
  total: number;
  done: number;
  doneBeforeInterruption: number;
  notFound: number;
  failed: number;
  unfinished: number;
  /** finished: every item has its outcome; cancelled: by the operator; stopped: by an error (both resumable). */
  ended: 'finished' | 'cancelled' | 'stopped';
}

/** After a done erasure: does the old uid still resolve? */
export const VERIFICATION_RESULTS = ['verified', 'not-verified', 'could-not-check'] as const;
export type VerificationResult = (typeof VERIFICATION_RESULTS)[number];

/** Where an act was started from. */
export type AuditVia = 'app' | 'cli' | 'batch';

/** What the gate writes; the audit log adds the chain fields (seq, prevHash, chainId, format). */
export interface AuditRecord {
  /** ISO 8601 with the local offset, e.g. 2026-11-22T18:02:11.123+01:00. */
  at: string;
  /** Random UUID shared by every entry of one act. */
  actId: string;
  action: AuditOperation;
  /** 'attempted' before the request; the request's outcome after it; 'verification' after a done erasure. */
  outcome: AuditStage;
  uid: string;
  /** Ticket or request number the operator gave. */
  reference?: string;
  profileId: string;
  profileName: string;
  baseUrl: string;
  /** The OS user who acted. */
  operator: string;
  appVersion: string;
  via: AuditVia;
  /** Set when via is 'batch'. */
  jobId?: string;
  /** A batch item the operator chose to send trimmed: the uid as pasted (spaces at an end); `uid` is what was sent. */
  pastedUid?: string;
  /** A deliberate test (the logout tester's negative cases, a conformance run's must-refuse tokens): refused is the expected result. */
  test?: { case: NegativeCase | ConformanceCaseId; run?: 'conformance' };
  status?: number;
  requestId?: string;
  errorCode?: ErrorCode;
  /** On 'verification' entries. */
  verification?: VerificationResult;
  /** On a batch job's 'summary' entry. */
  batch?: BatchAuditSummary;
  /** On an 'acknowledge' entry. */
  acknowledgement?: AnchorAcknowledgement;
  /** On a 'request' entry. */
  register?: RegisterAuditRef;
  /** Team mode: the desktop (computer name) the entry was written from, beside the OS user in `operator`. */
  desktop?: string;
  /** Team mode: the database role the entry was written with. */
  dbRole?: string;
  /** Team mode, an entry moved from a local trail by `team import`: the local line's text exactly as it was stored there. */
  imported?: ImportedLine;
  /** Team mode, on the first imported entry: the local trail it begins, whose head its lines must hash to. */
  importedFrom?: ImportedTrail;
}

/**
 * An imported entry's local line (core/team/pg-audit-import.ts): `text` is the local file's bytes from just after the
 * previous imported line's newline up to this line's newline (blank lines before it included), so the imported
 * texts joined by newlines are the local trail again, which `audit verify` re-hashes.
 */
export interface ImportedLine {
  text: string;
}

/** The local trail a run of imported entries came from: its chain's id, its head hash and how many lines it had. */
export interface ImportedTrail {
  chainId: string | null;
  headHash: string | null;
  /** The local trail's chained entries. */
  entries: number;
  /** Imported entries that follow, this one included (every non-blank local line). */
  lines: number;
}

/**
 * One line of the trail as read: the record plus its place in the hash chain.
 * actId, operator and appVersion are missing only on lines written before they existed.
 */
export interface AuditEntry extends Omit<AuditRecord, 'actId' | 'operator' | 'appVersion'> {
  actId?: string;
  operator?: string;
  appVersion?: string;
  /** Format of the line; absent on lines written before the chain (read as legacy, unchained). */
  format?: 2;
  /** Position in the chain, from 1. */
  seq?: number;
  /** SHA-256 (hex) of the previous entry's canonical serialisation; for the first entry, of the chain id. */
  prevHash?: string;
  /** On the first entry only: the random id that anchors the chain. */
  chainId?: string;
  /** On the first entry only: the lines the file held when the chain started (written before it existed) and their SHA-256. */
  before?: { lines: number; sha256: string };
}

/** A line that could not be read as an entry: shown as corrupt, never hiding the others. */
export interface CorruptAuditLine {
  line: number;
  /** What is wrong, in English (not JSON, missing field, unknown outcome…), as the CLI prints it. */
  problem: string;
  /** The same as a message (auditLine.*), which the window words in its language. */
  problemText?: MessageText;
  /** The start of the line as stored, cut short; display it as text only. */
  excerpt: string;
}

/**
 * The anchor the trail was checked against: its head kept where a rewrite of the file does not reach
 * (core/audit-anchor.ts).
 */
export interface AnchorReport {
  /** keychain: the OS keychain entry of the data folder; session: this process's memory (no keychain): it anchors this session only. */
  store: 'keychain' | 'session';
  /** checked: the trail was compared with it; adopted: none was kept, so it was set now from the trail as it stands; unavailable: it could not be read (problem). */
  state: 'checked' | 'adopted' | 'unavailable';
  /** Why the keychain is not used, or why the anchor could not be read. */
  problem?: string;
  /** The anchor was first kept for a trail that already had entries: those up to `seq` were taken as found, on `at`. */
  adopted?: { at: string; seq: number };
  /** Problems anchored writes found on their way (kept for good; the first one not acknowledged is the verdict when the trail is otherwise intact). */
  findings: number;
  /** Writes a crash cut short, proven by their fragment: nothing of them is missing that the trail had. Not a break. */
  crashes?: MessageText[];
  /** Findings an operator acknowledged: they stay on record, and no longer break the verdict. */
  acknowledged?: AcknowledgedFinding[];
  /** Findings waiting for an acknowledgement: the one this check found first, then those writes found, oldest first; the first of them is the verdict when the chain itself is intact. */
  open?: OpenFinding[];
}

/** A finding of the anchor not yet acknowledged: its id (what `audit acknowledge` takes) and what it is. */
export interface OpenFinding {
  finding: string;
  kind: 'rolled-back' | 'unlanded' | 'rewritten' | 'unanchored';
  text: MessageText;
  /** When a write found it; absent when this check found it. */
  foundAt?: string;
  /** What to do about it (anchor.next.*): find out why, keep what the trail lacks, then acknowledge — or restore. */
  next?: MessageText;
}

/** A finding and who acknowledged it, when and why (from the acknowledgement's entry in the trail). */
export interface AcknowledgedFinding extends OpenFinding {
  /** When it was acknowledged (the entry's time). */
  at: string;
  /** Who acknowledged it (the entry's operator). */
  by: string;
  reason: string;
  /** The acknowledgement's line in audit.jsonl. */
  line: number;
}

/** What `verify` answers. */
export type ChainVerdict =
  | {
      ok: true;
      /** Chained entries checked. */
      entries: number;
      headHash: string | null;
      chainId: string | null;
      /** Lines written before the chain existed (no format field): readable, but no hash covers them. */
      legacy?: number;
      anchor?: AnchorReport;
      /** The request register checked against the trail (absent when not checked). */
      register?: RegisterCheck;
    }
  | {
      ok: false;
      entries: number;
      /**
       * The first break, located. The last four come from the anchor: the trail ends before it (rolled-back: entries
       * removed, a deleted file), lacks a write the anchor knew under way with nothing to tell a crash from a removal
       * (unlanded: inconclusive), differs from it (rewritten), or goes past it with entries no anchored write vouches
       * for (unanchored). An operator may acknowledge such a finding (AnchorReport.acknowledged).
       */
      kind: 'edited' | 'removed' | 'swapped' | 'inserted' | 'torn-tail' | 'corrupt' | 'unchained' | 'rolled-back' | 'unlanded' | 'rewritten' | 'unanchored';
      /** 1-based line number in audit.jsonl where the break shows. */
      line: number;
      /** Plain words: what was found and where (in English, from `text`). */
      message: string;
      /** The same as a message id (shared/messages/audit.ts): the window words it in its language. */
      text?: MessageText;
      headHash: string | null;
      anchor?: AnchorReport;
      /** The lines nothing vouches for (lineVouching); absent: every line from `line` on. */
      unvouched?: UnvouchedLines;
      register?: RegisterCheck;
    };

/**
 * Which lines of audit.jsonl a broken verdict leaves without anything to vouch for them: the lines before line
 * `outsideBefore` (outside the chain: before its first entry, and not the genuine prefix it records — or every line,
 * when nothing is chained), and every line from `from` on (where the chain, or its anchor, breaks, and after).
 * A chain whose only problem is its prefix has no `from`: the chain after it is intact.
 */
export interface UnvouchedLines {
  outsideBefore?: number;
  from?: number;
}

/** What the verdict says of one line: vouched for, outside the chain, the very line where it breaks, or after that break. */
export type LineVouching = 'vouched' | 'outside-chain' | 'at-break' | 'after-break';

export function lineVouching(verdict: ChainVerdict, line: number): LineVouching {
  if (verdict.ok) return 'vouched';
  const { outsideBefore, from } = verdict.unvouched ?? { from: verdict.line };
  if (outsideBefore !== undefined && line < outsideBefore) return 'outside-chain';
  if (from === undefined || line < from) return 'vouched';
  return line === from ? 'at-break' : 'after-break';
}

/** The strongest of several lines' (an act's entries): the break itself first, then outside the chain, then after a break. */
export function actVouching(verdict: ChainVerdict, lines: readonly number[]): LineVouching {
  const found = new Set(lines.map((line) => lineVouching(verdict, line)));
  return (['at-break', 'outside-chain', 'after-break'] as const).find((state) => found.has(state)) ?? 'vouched';
}

/**
 * The one filter rule the console, the CLI and exports share (matchesAuditFilter).
 * - since / until: calendar dates (YYYY-MM-DD; anything longer is cut to its first 10 characters),
 *   both inclusive, compared with the entry's own date as written in `at` — the operator's local
 *   date at the time of the act, since `at` carries its offset. until 2026-11-22 keeps the whole day.
 * - operation, outcome, profileId, uid: exact (uids are case-sensitive, as the service's are).
 * - reference: the whole reference, ignoring case and surrounding spaces (REQ-12 finds req-12, not REQ-123).
 * Empty or missing fields do not filter.
 */
export interface AuditFilter {
  since?: string;
  until?: string;
  operation?: AuditOperation;
  outcome?: AuditStage;
  profileId?: string;
  uid?: string;
  reference?: string;
}

export function matchesAuditFilter(entry: Pick<AuditEntry, 'at' | 'action' | 'outcome' | 'profileId' | 'uid' | 'reference'>, filter: AuditFilter): boolean {
  const day = typeof entry.at === 'string' ? entry.at.slice(0, 10) : '';
  if (filter.since && day < filter.since.slice(0, 10)) return false;
  if (filter.until && day > filter.until.slice(0, 10)) return false;
  if (filter.operation && entry.action !== filter.operation) return false;
  if (filter.outcome && entry.outcome !== filter.outcome) return false;
  if (filter.profileId && entry.profileId !== filter.profileId) return false;
  if (filter.uid && entry.uid !== filter.uid) return false;
  const wanted = filter.reference?.trim().toLowerCase();
  if (wanted && (entry.reference ?? '').trim().toLowerCase() !== wanted) return false;
  return true;
}

/** A readable entry and its 1-based line number in audit.jsonl. */
export type AuditEntryAt = AuditEntry & { line: number };

/** The whole trail as read: never fails as a whole (bad lines become CorruptAuditLine). */
export interface AuditReading {
  /** Oldest first. */
  entries: AuditEntryAt[];
  corrupt: CorruptAuditLine[];
  verdict: ChainVerdict;
  /** A torn last line (crash or full disk mid-write) moved to a file of its own when the trail was opened. */
  setAside?: { path: string; bytes: number };
  /**
   * 'attempted' entries with no outcome entry for the same act and operation: the outcome was not
   * recorded (the process crashed or the disk was full after the request left), or the act is still
   * under way in another process. Show them as unknown.
   */
  outcomeMissing: Array<{ line: number; actId: string; action: AuditOperation; uid: string }>;
}

/**
 * A reading in pages (audit.readPage), so no answer carries 50,000 entries the window must parse at once: the
 * entries from `from`, `total` in all, the rest of the reading on every page; `reading` names the reading the
 * later pages come from.
 */
export interface AuditReadingPage extends Omit<AuditReading, 'entries'> {
  reading: string;
  entries: AuditEntryAt[];
  total: number;
}

/** What exportAudit returns: the file to save, and the chain head it was taken against. */
export interface AuditExport {
  fileName: string;
  mimeType: string;
  content: string;
  /** The head hash of the whole chain (not of the filtered rows): write it into the ticket as an outside anchor. */
  headHash: string | null;
  /** Entries exported (after the filter). */
  count: number;
}

export type AuditExportFormat = 'csv' | 'json';
