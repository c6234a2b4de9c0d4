/**
 * Reading the audit trail: every line on its own, so one bad line never hides the others.
 *
 * API for the console and the other fronts (Desk methods, core/desk.ts; types in shared/audit.ts):
 * - desk.readAudit(): Promise<AuditReading> — { entries (oldest first, each with its 1-based `line`),
 *   corrupt: CorruptAuditLine[], verdict: ChainVerdict, setAside?: { path, bytes } (a torn last line
 *   moved to its own file at this open), outcomeMissing: attempts with no outcome entry (show as unknown) }.
 *   Legacy 'succeeded'/'failed' outcomes come upgraded. Never throws on content; throws only when the
 *   file exists but cannot be read at all (permission).
 * - desk.verifyAudit(anchor?): Promise<ChainVerdict> — read-only; 'torn-tail' when the last line is incomplete;
 *   with `anchor` (a head hash written down earlier), 'removed' when no entry has that hash any more.
 * - desk.exportAudit({ format: 'csv' | 'json', filter?: AuditFilter }): Promise<AuditExport>
 *   ({ fileName, mimeType, content, headHash, count }); columns in core/audit-export.ts.
 * - matchesAuditFilter(entry, filter) in shared/audit.ts: the one filter rule (dates inclusive, by the entry's local date).
 * - desk.flushPending(): Promise<number> — retries outcome entries that could not be written
 *   (the app runtime calls it on a timer); desk.pendingAuditCount() says how many are waiting.
 * - desk.auditEntries(limit) still works (newest first, readable entries only).
 */
import type { AuditEntry, AuditEntryAt, AuditReading, ChainVerdict, CorruptAuditLine } from '../shared/audit';
import { VERIFICATION_RESULTS } from '../shared/audit';
import { OUTCOMES } from '../shared/errors';
import { ERASURE_ACTIONS } from '../shared/users';
import { AUDIT_FORMAT, isChained, sha256Hex, verifyChain, type ChainLine, type ChainPrefix, type TornTail } from './audit-chain';
import { upgradeLegacyEntry } from './legacy-audit-entry';
import { MAX_JSON_DEPTH, parseBoundedJson, TOO_DEEP } from './bounded-json';
import type { MessageParam, MessageText } from '../shared/message-text';
import { msg, wordInEnglish } from '../shared/messages';

const EXCERPT_CHARS = 120;
const ACTIONS: readonly string[] = [...ERASURE_ACTIONS, 'logout', 'batch', 'acknowledge', 'request'];
const STAGES: readonly string[] = ['attempted', ...OUTCOMES, 'verification', 'summary', 'acknowledged', 'succeeded', 'failed'];
const VIAS: readonly string[] = ['app', 'cli', 'batch'];

export interface ParsedTrail {
  entries: AuditEntryAt[];
  corrupt: CorruptAuditLine[];
  chainLines: ChainLine[];
  torn: (TornTail & { excerpt: string }) | null;
  /** The lines before the first chained entry, as the file holds them (null when no entry is chained). */
  prefix: ChainPrefix | null;
}

/** Splits the file's text into entries, corrupt lines and a torn tail (a last line with no newline). */
export function parseAuditText(text: string): ParsedTrail {
  const parts = text.split('\n');
  const last = parts.pop() ?? ''; // '' after a clean end; otherwise the torn part
  const torn = last.length > 0 ? { line: parts.length + 1, bytes: Buffer.byteLength(last, 'utf8'), excerpt: excerptOf(last) } : null;
  const entries: AuditEntryAt[] = [];
  const corrupt: CorruptAuditLine[] = [];
  const chainLines: ChainLine[] = [];
  let prefix: ChainPrefix | null = null;
  let offset = 0;
  parts.forEach((raw, index) => {
    const line = index + 1;
    const start = offset;
    offset += raw.length + 1;
    if (!raw.trim()) return;
    // Bounded: a line nested thousands deep would overflow the stack when hashed or shown; it is corrupt like any other.
    const parsed = parseBoundedJson(raw);
    const value = parsed.ok ? parsed.value : undefined;
    const problemText = parsed.ok ? entryProblem(value) : parsed.problem === TOO_DEEP ? msg('auditLine.tooDeep', { levels: MAX_JSON_DEPTH }) : msg('auditLine.notJson');
    if (problemText) {
      // In English for the CLI and the chain's own words; as a message for the window.
      const problem = wordInEnglish(problemText);
      corrupt.push({ line, problem, problemText, excerpt: excerptOf(raw) });
      chainLines.push({ line, kind: 'corrupt', problem, problemText });
      return;
    }
    chainLines.push({ line, kind: 'entry', stored: value as Record<string, unknown> });
    entries.push({ ...upgradeLegacyEntry(value as AuditEntry), line });
    if (!prefix && isChained(value)) prefix = { lines: index, sha256: sha256Hex(text.slice(0, start)) };
  });
  return { entries, corrupt, chainLines, torn, prefix };
}

/** The whole reading from the file's text. */
export function readingOf(text: string, setAside?: AuditReading['setAside'], anchor?: string): AuditReading {
  const parsed = parseAuditText(text);
  const verdict: ChainVerdict = verifyChain(parsed.chainLines, parsed.torn, { prefix: parsed.prefix, ...(anchor !== undefined ? { anchor } : {}) });
  const torn = msg('auditLine.torn');
  const corrupt = parsed.torn ? [...parsed.corrupt, { line: parsed.torn.line, problem: wordInEnglish(torn), problemText: torn, excerpt: parsed.torn.excerpt }] : parsed.corrupt;
  const reading: AuditReading = { entries: parsed.entries, corrupt, verdict, outcomeMissing: outcomesMissing(parsed.entries) };
  if (setAside) reading.setAside = setAside;
  return reading;
}

/** Attempts with no later entry of the same act and operation: their outcome was never recorded. */
export function outcomesMissing(entries: AuditEntryAt[]): AuditReading['outcomeMissing'] {
  const open = new Map<string, AuditEntryAt>();
  for (const entry of entries) {
    if (!entry.actId) continue; // legacy lines cannot be paired
    const key = `${entry.actId}\u0000${entry.action}`;
    // Any later entry of the act and operation closes its attempt: an outcome, or the verification
    // that answers the check sent after a done erasure (which writes its own attempt first).
    if (entry.outcome === 'attempted') open.set(key, entry);
    else open.delete(key);
  }
  return [...open.values()].map((e) => ({ line: e.line, actId: e.actId as string, action: e.action, uid: e.uid }));
}

function excerptOf(raw: string): string {
  return raw.length > EXCERPT_CHARS ? `${raw.slice(0, EXCERPT_CHARS)}…` : raw;
}

/** What kind of JSON value it is, as a phrase. */
const describe = (value: unknown): MessageText => {
  if (value === null) return msg('auditLine.kind.null');
  if (Array.isArray(value)) return msg('auditLine.kind.list');
  switch (typeof value) {
    case 'string':
      return msg('auditLine.kind.text');
    case 'number':
      return msg('auditLine.kind.number');
    case 'boolean':
      return msg('auditLine.kind.boolean');
    case 'undefined':
      return msg('auditLine.kind.missing');
    default:
      return msg('auditLine.kind.object');
  }
};
/** A stored value as it was written (JSON), or "missing". */
const shown = (value: unknown): MessageParam => JSON.stringify(value) ?? msg('auditLine.missing');
const optional = (record: Record<string, unknown>, field: string, check: (v: unknown) => boolean): boolean => record[field] === undefined || check(record[field]);
const isText = (v: unknown): v is string => typeof v === 'string';

const BATCH_COUNTS = ['total', 'done', 'doneBeforeInterruption', 'notFound', 'failed', 'unfinished'] as const;
const isBatchSummary = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return ERASURE_ACTIONS.includes(b.operation as never) && ['finished', 'cancelled', 'stopped'].includes(b.ended as string) && BATCH_COUNTS.every((field) => Number.isInteger(b[field]));
};

const isAcknowledgement = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (['finding', 'kind', 'problem', 'reason'] as const).every((field) => isText(a[field]));
};

const isRegisterRef = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return isText(r.requestId) && isText(r.change) && Number.isSafeInteger(r.event) && (r.event as number) >= 1 && isText(r.sha256) && /^[0-9a-f]{64}$/.test(r.sha256);
};

const isHashOrNull = (v: unknown): boolean => v === null || (isText(v) && /^[0-9a-f]{64}$/.test(v));
const isImportedTrail = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return (t.chainId === null || isText(t.chainId)) && isHashOrNull(t.headHash) && Number.isSafeInteger(t.entries) && Number.isSafeInteger(t.lines) && (t.lines as number) >= 1;
};

/** What is wrong with a parsed line, as a message (auditLine.*); null when it is a readable entry. */
export function entryProblem(value: unknown): MessageText | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return msg('auditLine.notAnEntry', { what: describe(value) });
  const r = value as Record<string, unknown>;
  if (!isText(r.at) || Number.isNaN(Date.parse(r.at))) return isText(r.at) ? msg('auditLine.badTimeText', { value: r.at.slice(0, 40) }) : msg('auditLine.badTime', { what: describe(r.at) });
  if (!isText(r.action) || !ACTIONS.includes(r.action)) return msg('auditLine.unknownOperation', { value: shown(r.action) });
  if (!isText(r.outcome) || !STAGES.includes(r.outcome)) return msg('auditLine.unknownOutcome', { value: shown(r.outcome) });
  for (const field of ['uid', 'profileId', 'profileName', 'baseUrl'] as const) if (!isText(r[field])) return msg('auditLine.notText', { field, what: describe(r[field]) });
  if (!isText(r.via) || !VIAS.includes(r.via)) return msg('auditLine.unknownVia', { value: shown(r.via) });
  for (const field of ['actId', 'reference', 'operator', 'appVersion', 'jobId', 'pastedUid', 'requestId', 'errorCode', 'desktop', 'dbRole']) {
    if (!optional(r, field, isText)) return msg('auditLine.notText', { field, what: describe(r[field]) });
  }
  if (!optional(r, 'status', (v) => Number.isInteger(v))) return msg('auditLine.notWholeNumber', { field: 'status', what: describe(r.status) });
  if (!optional(r, 'verification', (v) => (VERIFICATION_RESULTS as readonly unknown[]).includes(v))) return msg('auditLine.unknownVerification', { value: shown(r.verification) });
  if (!optional(r, 'batch', isBatchSummary)) return msg('auditLine.notBatchSummary');
  if (!optional(r, 'test', (v) => typeof v === 'object' && v !== null && isText((v as { case?: unknown }).case))) return msg('auditLine.notTestCase');
  if (!optional(r, 'acknowledgement', isAcknowledgement)) return msg('auditLine.notAcknowledgement');
  if (!optional(r, 'register', isRegisterRef)) return msg('auditLine.notRegister');
  if (!optional(r, 'imported', (v) => typeof v === 'object' && v !== null && isText((v as { text?: unknown }).text))) return msg('auditLine.notImported');
  if (!optional(r, 'importedFrom', isImportedTrail)) return msg('auditLine.notImported');
  if (r.format === undefined) return null;
  if (r.format !== AUDIT_FORMAT) return msg('auditLine.unknownFormat', { value: shown(r.format) });
  if (!Number.isSafeInteger(r.seq) || (r.seq as number) < 1) return msg('auditLine.noSeq');
  if (!isText(r.prevHash) || !/^[0-9a-f]{64}$/.test(r.prevHash)) return msg('auditLine.noPrevHash');
  if (!optional(r, 'chainId', isText)) return msg('auditLine.chainIdNotText');
  if (!optional(r, 'before', (v) => typeof v === 'object' && v !== null && Number.isSafeInteger((v as { lines?: unknown }).lines) && /^[0-9a-f]{64}$/.test(String((v as { sha256?: unknown }).sha256)))) {
    return msg('auditLine.badBefore');
  }
  return null;
}
