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
import { parseBoundedJson } from './bounded-json';

const EXCERPT_CHARS = 120;
const ACTIONS: readonly string[] = [...ERASURE_ACTIONS, 'logout', 'batch'];
const STAGES: readonly string[] = ['attempted', ...OUTCOMES, 'verification', 'summary', 'succeeded', 'failed'];
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
    if (!parsed.ok) {
      corrupt.push({ line, problem: parsed.problem, excerpt: excerptOf(raw) });
      chainLines.push({ line, kind: 'corrupt', problem: parsed.problem });
      return;
    }
    const value = parsed.value;
    const problem = entryProblem(value);
    if (problem) {
      corrupt.push({ line, problem, excerpt: excerptOf(raw) });
      chainLines.push({ line, kind: 'corrupt', problem });
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
  const corrupt = parsed.torn ? [...parsed.corrupt, { line: parsed.torn.line, problem: 'incomplete last line (torn write)', excerpt: parsed.torn.excerpt }] : parsed.corrupt;
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

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'string' ? 'a text' : `a ${typeof value}`);
const optional = (record: Record<string, unknown>, field: string, check: (v: unknown) => boolean): boolean => record[field] === undefined || check(record[field]);
const isText = (v: unknown): v is string => typeof v === 'string';

const BATCH_COUNTS = ['total', 'done', 'doneBeforeInterruption', 'notFound', 'failed', 'unfinished'] as const;
const isBatchSummary = (v: unknown): boolean => {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return ERASURE_ACTIONS.includes(b.operation as never) && ['finished', 'cancelled', 'stopped'].includes(b.ended as string) && BATCH_COUNTS.every((field) => Number.isInteger(b[field]));
};

/** What is wrong with a parsed line, in words; null when it is a readable entry. */
export function entryProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${describe(value)} instead of an entry`;
  const r = value as Record<string, unknown>;
  if (!isText(r.at) || Number.isNaN(Date.parse(r.at))) return `no valid time ("at" is ${describe(r.at)}${isText(r.at) ? ` "${r.at.slice(0, 40)}"` : ''})`;
  if (!isText(r.action) || !ACTIONS.includes(r.action)) return `unknown operation ${JSON.stringify(r.action) ?? 'missing'}`;
  if (!isText(r.outcome) || !STAGES.includes(r.outcome)) return `unknown outcome ${JSON.stringify(r.outcome) ?? 'missing'}`;
  for (const field of ['uid', 'profileId', 'profileName', 'baseUrl'] as const) if (!isText(r[field])) return `"${field}" is ${describe(r[field])}, not a text`;
  if (!isText(r.via) || !VIAS.includes(r.via)) return `unknown origin ("via" ${JSON.stringify(r.via) ?? 'missing'})`;
  for (const field of ['actId', 'reference', 'operator', 'appVersion', 'jobId', 'pastedUid', 'requestId', 'errorCode']) {
    if (!optional(r, field, isText)) return `"${field}" is ${describe(r[field])}, not a text`;
  }
  if (!optional(r, 'status', (v) => Number.isInteger(v))) return `"status" is ${describe(r.status)}, not a whole number`;
  if (!optional(r, 'verification', (v) => (VERIFICATION_RESULTS as readonly unknown[]).includes(v))) return `unknown verification result ${JSON.stringify(r.verification)}`;
  if (!optional(r, 'batch', isBatchSummary)) return '"batch" is not a batch summary';
  if (!optional(r, 'test', (v) => typeof v === 'object' && v !== null && isText((v as { case?: unknown }).case))) return '"test" is not a test case';
  if (r.format === undefined) return null;
  if (r.format !== AUDIT_FORMAT) return `unknown format ${JSON.stringify(r.format)}`;
  if (!Number.isSafeInteger(r.seq) || (r.seq as number) < 1) return 'chain number ("seq") missing or invalid';
  if (!isText(r.prevHash) || !/^[0-9a-f]{64}$/.test(r.prevHash)) return 'chain link ("prevHash") missing or invalid';
  if (!optional(r, 'chainId', isText)) return '"chainId" is not a text';
  if (!optional(r, 'before', (v) => typeof v === 'object' && v !== null && Number.isSafeInteger((v as { lines?: unknown }).lines) && /^[0-9a-f]{64}$/.test(String((v as { sha256?: unknown }).sha256)))) {
    return 'record of the lines before the chain ("before") invalid';
  }
  return null;
}
