import { createHash, randomUUID } from 'node:crypto';
import type { ChainVerdict, UnvouchedLines } from '../shared/audit';
import type { MessageText } from '../shared/message-text';
import { msg, wordInEnglish } from '../shared/messages';

/**
 * The hash chain of the audit trail, in one place.
 *
 * Canonical form of an entry (what is hashed): the entry as stored (the parsed JSON object of its
 * line, chain fields included), serialised as JSON with every object's keys sorted by UTF-16 code
 * unit (JavaScript's default sort), recursively, no whitespace, undefined members left out, arrays
 * in order; hashed as UTF-8 with SHA-256, written in lowercase hex. So the same entry always hashes
 * the same, however its line was spaced or its keys ordered.
 *
 * - The first chained entry: seq 1, a random chainId (UUID), prevHash = SHA-256 of the chainId, and
 *   `before` = { lines, sha256 }: how many lines the file held when the chain started (blank ones
 *   included) and the SHA-256 of exactly those bytes (of the empty text when there were none).
 * - Every later entry: seq = previous seq + 1, prevHash = hash of the previous stored entry.
 * - Head hash: the hash of the last chained entry.
 *
 * Lines with no place in the chain (no `format`: written before the chain existed, "legacy") are
 * evidence only as the genuine prefix the first entry records: the lines before it must be exactly
 * that many, with that fingerprint, and are then counted as `legacy` in the verdict (readable, no
 * hash of their own). Anything else is a break: lines before a chain whose record says fewer or
 * other lines ('inserted', 'removed', 'edited'); lines before a chain whose first entry records
 * nothing, written before the record existed ('unchained': nothing shows they were there when the
 * chain started, and a forged act is written exactly so); an unchained line after the chain started
 * ('inserted'). Such lines are never presented as verified.
 */
export const AUDIT_FORMAT = 2 as const;

// Written with loops, not map and join: every audit write hashes each entry it links to (two an item of a batch).
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ',';
      // A hole stays empty, as join leaves it.
      if (index in value) text += value[index] === undefined ? 'null' : canonicalJson(value[index]);
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${text}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The fingerprint of a stored entry: what its successor's prevHash holds. */
export function entryHash(stored: object): string {
  return sha256Hex(canonicalJson(stored));
}

export function chainAnchor(chainId: string): string {
  return sha256Hex(chainId);
}

/** What the file held when the chain started: its lines before the first chained entry. */
export interface ChainPrefix {
  lines: number;
  /** SHA-256 (hex) of those lines' bytes, newlines included. */
  sha256: string;
}

/** The chain fields an appended entry receives. */
export interface ChainLink {
  format: typeof AUDIT_FORMAT;
  seq: number;
  prevHash: string;
  chainId?: string;
  /** On the first entry only. */
  before?: ChainPrefix;
}

export interface ChainedShape {
  format: typeof AUDIT_FORMAT;
  seq: number;
  prevHash: string;
  chainId?: string;
  before?: ChainPrefix;
}

/** The prefix record for the text a chain starts after (the file's whole content at that moment). */
export function prefixOf(text: string): ChainPrefix {
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  return { lines, sha256: sha256Hex(text) };
}

const isPrefix = (value: unknown): value is ChainPrefix => {
  const v = value as Partial<ChainPrefix> | null;
  return typeof v === 'object' && v !== null && Number.isSafeInteger(v.lines) && (v.lines ?? -1) >= 0 && typeof v.sha256 === 'string' && /^[0-9a-f]{64}$/.test(v.sha256);
};

export function isChained(value: unknown): value is ChainedShape {
  const v = value as Partial<ChainedShape> | null;
  return typeof v === 'object' && v !== null && v.format === AUDIT_FORMAT && Number.isSafeInteger(v.seq) && (v.seq ?? 0) >= 1 && typeof v.prevHash === 'string';
}

/** The first entry's link; `precedingText`: everything the file holds before it ('' for a new trail). */
export function startChain(precedingText = ''): ChainLink {
  const chainId = randomUUID();
  return { format: AUDIT_FORMAT, seq: 1, chainId, prevHash: chainAnchor(chainId), before: prefixOf(precedingText) };
}

/** The link after a stored chained entry. */
export function linkAfter(previous: ChainedShape): ChainLink {
  return { format: AUDIT_FORMAT, seq: previous.seq + 1, prevHash: entryHash(previous) };
}

/** One non-blank line of the trail, as verify sees it. */
export type ChainLine =
  | { line: number; kind: 'entry'; stored: Record<string, unknown> }
  | { line: number; kind: 'corrupt'; problem: string; problemText?: MessageText };

export interface TornTail {
  line: number;
  bytes: number;
}

export interface VerifyOptions {
  /** A head hash written down earlier (in a ticket): the chain must still hold that entry, which catches entries removed from the end. */
  anchor?: string;
  /** The lines before the first chained entry as the file holds them now (null: no chained entry); core/audit-reader.ts reads it. */
  prefix: ChainPrefix | null;
  /**
   * The chain up to here was walked already (a trail read in pages: core/team/pg-audit-verify.ts): its last entry
   * (line, seq, hash), its id and how many entries it had. The lines given continue it.
   */
  after?: ChainResume;
}

export interface ChainResume {
  line: number;
  seq: number;
  hash: string;
  chainId: string | null;
  entries: number;
}

/** Walks the chain and names the first break, with its line; `torn` is an incomplete last line. */
export function verifyChain(lines: ChainLine[], torn: TornTail | null, { anchor, prefix, after }: VerifyOptions): ChainVerdict {
  let anchorSeen = false;
  let prev: { line: number; seq: number; hash: string; prevHash: string } | null = after ? { line: after.line, seq: after.seq, hash: after.hash, prevHash: '' } : null;
  let chainId: string | null = after?.chainId ?? null;
  let legacy = 0;
  let entries = after?.entries ?? 0;
  // A prefix the first entry does not vouch for is reported once the chain after it has been walked (it comes first by line).
  let prefixBreak: { kind: BreakKind; text: MessageText; chainStarts: number } | null = null;
  // The prefix's break is the verdict, but the later break still says which lines the chain no longer vouches for.
  const broken = (kind: BreakKind, line: number, text: MessageText): ChainVerdict =>
    prefixBreak
      ? breakOf(prefixBreak.kind, 1, prefixBreak.text, entries, prev?.hash ?? null, { outsideBefore: prefixBreak.chainStarts, from: line })
      : breakOf(kind, line, text, entries, prev?.hash ?? null);
  const chainedAt = (index: number): (ChainedShape & { line: number; stored: Record<string, unknown> }) | null => {
    const next = lines[index];
    return next?.kind === 'entry' && isChained(next.stored) ? { ...next.stored, line: next.line, stored: next.stored } : null;
  };

  for (let i = 0; i < lines.length; i++) {
    const current = lines[i] as ChainLine;
    if (current.kind === 'corrupt') return broken('corrupt', current.line, msg('chain.corrupt', { line: current.line, problem: current.problemText ?? current.problem }));
    const { line, stored } = current;
    if (!isChained(stored)) {
      if (prev) return broken('inserted', line, msg('chain.unchainedAfter', { line, after: prev.line }));
      legacy++;
      continue;
    }
    const hash = entryHash(stored);
    if (!prev) {
      if (stored.seq !== 1) {
        return broken('removed', line, msg('chain.startRemoved', { line, seq: stored.seq, last: stored.seq - 1 }));
      }
      if (typeof stored.chainId !== 'string' || stored.prevHash !== chainAnchor(stored.chainId)) {
        return broken('edited', line, msg('chain.firstEdited', { line }));
      }
      chainId = stored.chainId;
      const problem = prefixProblem(stored.before, prefix ?? { lines: line - 1, sha256: '' }, line);
      prefixBreak = problem && { ...problem, chainStarts: line };
      if (prefixBreak) legacy = 0;
    } else if (stored.chainId !== undefined) {
      return broken('inserted', line, msg('chain.secondChain', { line, after: prev.line }));
    } else if (stored.seq === prev.seq + 1) {
      if (stored.prevHash !== prev.hash) {
        const next = chainedAt(i + 1);
        if (next && next.seq === stored.seq && next.prevHash === prev.hash) {
          return broken('inserted', line, msg('chain.insertedSameNumber', { line, next: next.line, seq: stored.seq, previous: prev.line }));
        }
        return broken('edited', prev.line, msg('chain.edited', { line: prev.line, next: line }));
      }
    } else if (stored.seq === prev.seq) {
      // Two entries claim one place: the one its successor does not link to is the intruder.
      const next = chainedAt(i + 1);
      const intruder = next && next.prevHash === hash ? prev.line : line;
      return broken('inserted', intruder, msg('chain.insertedClaim', { line: intruder, first: prev.line, second: line, seq: stored.seq }));
    } else if (stored.seq === prev.seq + 2 && chainedAt(i + 1)?.seq === prev.seq + 1) {
      const next = chainedAt(i + 1) as { line: number };
      return broken('swapped', line, msg('chain.swapped', { line, next: next.line, seq: stored.seq, expected: prev.seq + 1 }));
    } else if (stored.seq > prev.seq + 1) {
      const first = prev.seq + 1;
      const last = stored.seq - 1;
      return broken('removed', line, first === last ? msg('chain.gapOne', { first, after: prev.line, line }) : msg('chain.gapMany', { first, last, after: prev.line, line }));
    } else {
      return broken('swapped', line, msg('chain.outOfOrder', { line, seq: stored.seq, previous: prev.line, previousSeq: prev.seq }));
    }
    prev = { line, seq: stored.seq, hash, prevHash: stored.prevHash };
    if (hash === anchor) anchorSeen = true;
    entries++;
  }
  if (torn) {
    return broken('torn-tail', torn.line, msg('chain.torn', { line: torn.line, bytes: torn.bytes }));
  }
  if (anchor !== undefined && !anchorSeen) {
    const end = (lines[lines.length - 1]?.line ?? 0) + 1;
    return broken('removed', end, msg('chain.headGone', { hash: anchor, last: end - 1 }));
  }
  if (!prev && legacy > 0) {
    const first = lines.find((l) => l.kind === 'entry')?.line ?? 1;
    const end = (lines[lines.length - 1]?.line ?? 0) + 1;
    return breakOf('unchained', first, msg('chain.noChain', { count: legacy }), entries, null, { outsideBefore: end });
  }
  if (prefixBreak) return breakOf(prefixBreak.kind, 1, msg('chain.intactAfter', { problem: prefixBreak.text, count: entries }), entries, prev?.hash ?? null, { outsideBefore: prefixBreak.chainStarts });
  return { ok: true, entries, headHash: prev?.hash ?? null, chainId, ...(legacy > 0 ? { legacy } : {}) };
}

/**
 * Whether the lines before the chain are the genuine prefix its first entry (at `line`) records; null when
 * they are. `found`: the lines there now, with their fingerprint. Without a record (a chain started before
 * entries recorded what preceded them), lines there cannot be told from lines added since: never evidence.
 */
function prefixProblem(recorded: unknown, found: ChainPrefix, line: number): { kind: BreakKind; text: MessageText } | null {
  const count = found.lines;
  if (recorded === undefined) return count === 0 ? null : { kind: 'unchained', text: msg('chain.prefixUnrecorded', { count, line }) };
  if (!isPrefix(recorded)) return { kind: 'edited', text: msg('chain.prefixUnreadable', { line }) };
  if (found.lines === recorded.lines && found.sha256 === recorded.sha256) return null;
  if (found.lines > recorded.lines) return { kind: 'inserted', text: msg('chain.prefixInserted', { count, line, recorded: recorded.lines }) };
  if (found.lines < recorded.lines) return { kind: 'removed', text: msg('chain.prefixRemoved', { line, recorded: recorded.lines, found: found.lines }) };
  return { kind: 'edited', text: msg('chain.prefixEdited', { count, line }) };
}

type BreakKind = Extract<ChainVerdict, { ok: false }>['kind'];

/** A break, worded in English from its message (the window words the same message in its language); nothing vouches for the lines from it on, unless told otherwise. */
export function breakOf(kind: BreakKind, line: number, text: MessageText, entries: number, headHash: string | null, unvouched: UnvouchedLines = { from: line }): ChainVerdict {
  return { ok: false, entries, kind, line, message: wordInEnglish(text), text, headHash, unvouched };
}

/** The verdict in plain words, for the CLI and logs. */
export function describeVerdict(verdict: ChainVerdict): string {
  if (!verdict.ok) return `NOT verified: ${verdict.message}`;
  const legacy = verdict.legacy
    ? ` (${verdict.legacy} earlier ${verdict.legacy === 1 ? 'line was' : 'lines were'} written before the chain existed: the chain’s first entry records their fingerprint, which still matches; no hash of their own covers them)`
    : '';
  return `Verified, ${verdict.entries} ${verdict.entries === 1 ? 'entry' : 'entries'}, head hash ${verdict.headHash ?? '(none: the trail is empty)'}${legacy}.`;
}
