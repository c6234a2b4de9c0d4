import { createHash, randomUUID } from 'node:crypto';
import type { ChainVerdict } from '../shared/audit';

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

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((key) => record[key] !== undefined).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
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
  | { line: number; kind: 'corrupt'; problem: string };

export interface TornTail {
  line: number;
  bytes: number;
}

export interface VerifyOptions {
  /** A head hash written down earlier (in a ticket): the chain must still hold that entry, which catches entries removed from the end. */
  anchor?: string;
  /** The lines before the first chained entry as the file holds them now (null: no chained entry); core/audit-reader.ts reads it. */
  prefix: ChainPrefix | null;
}

/** Walks the chain and names the first break, with its line; `torn` is an incomplete last line. */
export function verifyChain(lines: ChainLine[], torn: TornTail | null, { anchor, prefix }: VerifyOptions): ChainVerdict {
  let anchorSeen = false;
  let prev: { line: number; seq: number; hash: string; prevHash: string } | null = null;
  let chainId: string | null = null;
  let legacy = 0;
  let entries = 0;
  // A prefix the first entry does not vouch for is reported once the chain after it has been walked (it comes first by line).
  let prefixBreak: { kind: Extract<ChainVerdict, { ok: false }>['kind']; message: string } | null = null;
  const broken = (kind: Extract<ChainVerdict, { ok: false }>['kind'], line: number, message: string): ChainVerdict =>
    prefixBreak ? { ok: false, entries, kind: prefixBreak.kind, line: 1, message: prefixBreak.message, headHash: prev?.hash ?? null } : { ok: false, entries, kind, line, message, headHash: prev?.hash ?? null };
  const chainedAt = (index: number): (ChainedShape & { line: number; stored: Record<string, unknown> }) | null => {
    const next = lines[index];
    return next?.kind === 'entry' && isChained(next.stored) ? { ...next.stored, line: next.line, stored: next.stored } : null;
  };

  for (let i = 0; i < lines.length; i++) {
    const current = lines[i] as ChainLine;
    if (current.kind === 'corrupt') return broken('corrupt', current.line, `Line ${current.line} is not a readable audit entry (${current.problem}).`);
    const { line, stored } = current;
    if (!isChained(stored)) {
      if (prev) return broken('inserted', line, `Line ${line} has no place in the chain (no sequence number and no link): it was added after line ${prev.line} by hand or by an older Privacy Desk.`);
      legacy++;
      continue;
    }
    const hash = entryHash(stored);
    if (!prev) {
      if (stored.seq !== 1) {
        return broken('removed', line, `The chain starts at line ${line} with entry number ${stored.seq}: entries 1 to ${stored.seq - 1} are missing (the start of the trail was removed).`);
      }
      if (typeof stored.chainId !== 'string' || stored.prevHash !== chainAnchor(stored.chainId)) {
        return broken('edited', line, `Line ${line}, the first entry of the chain, was edited: its link to its chain id does not match.`);
      }
      chainId = stored.chainId;
      prefixBreak = prefixProblem(stored.before, prefix ?? { lines: line - 1, sha256: '' }, line, legacy);
      if (prefixBreak) legacy = 0;
    } else if (stored.chainId !== undefined) {
      return broken('inserted', line, `Line ${line} starts a second chain after line ${prev.line}: it was not written by this trail (inserted or pasted from another file).`);
    } else if (stored.seq === prev.seq + 1) {
      if (stored.prevHash !== prev.hash) {
        const next = chainedAt(i + 1);
        if (next && next.seq === stored.seq && next.prevHash === prev.hash) {
          return broken('inserted', line, `Line ${line} was inserted: line ${next.line} carries the same number (${stored.seq}) and links to line ${prev.line}.`);
        }
        return broken('edited', prev.line, `Line ${prev.line} was edited after it was written: line ${line} recorded a different fingerprint of it.`);
      }
    } else if (stored.seq === prev.seq) {
      // Two entries claim one place: the one its successor does not link to is the intruder.
      const next = chainedAt(i + 1);
      const intruder = next && next.prevHash === hash ? prev.line : line;
      return broken('inserted', intruder, `Line ${intruder} was inserted: lines ${prev.line} and ${line} both claim number ${stored.seq}.`);
    } else if (stored.seq === prev.seq + 2 && chainedAt(i + 1)?.seq === prev.seq + 1) {
      const next = chainedAt(i + 1) as { line: number };
      return broken('swapped', line, `Lines ${line} and ${next.line} were swapped: entry ${stored.seq} comes before entry ${prev.seq + 1}.`);
    } else if (stored.seq > prev.seq + 1) {
      const first = prev.seq + 1;
      const last = stored.seq - 1;
      return broken('removed', line, `${first === last ? `Entry ${first} is` : `Entries ${first} to ${last} are`} missing between line ${prev.line} and line ${line}: removed from the trail.`);
    } else {
      return broken('swapped', line, `Line ${line} (entry ${stored.seq}) comes after line ${prev.line} (entry ${prev.seq}): entries were moved out of order.`);
    }
    prev = { line, seq: stored.seq, hash, prevHash: stored.prevHash };
    if (hash === anchor) anchorSeen = true;
    entries++;
  }
  if (torn) {
    return broken('torn-tail', torn.line, `The last line (line ${torn.line}, ${torn.bytes} bytes) is incomplete: a write was cut short by a crash or a full disk. It is moved to a file of its own the next time the trail is opened for writing.`);
  }
  if (anchor !== undefined && !anchorSeen) {
    const end = (lines[lines.length - 1]?.line ?? 0) + 1;
    return broken('removed', end, `No entry has the hash ${anchor} any more: entries were removed from the end of the trail (after line ${end - 1}), or the trail was rewritten since that hash was written down.`);
  }
  if (!prev && legacy > 0) {
    const first = lines.find((l) => l.kind === 'entry')?.line ?? 1;
    return broken(
      'unchained',
      first,
      `The trail holds ${legacy} ${legacy === 1 ? 'line' : 'lines'} and no hash chain: nothing vouches for ${legacy === 1 ? 'it' : 'them'}. The next entry Privacy Desk writes starts the chain and records ${legacy === 1 ? 'this line' : 'these lines'} as ${legacy === 1 ? 'it is' : 'they are'} then.`,
    );
  }
  if (prefixBreak) {
    const intact = ` The chain after them (${entries} ${entries === 1 ? 'entry' : 'entries'}) is intact.`;
    return { ok: false, entries, kind: prefixBreak.kind, line: 1, message: prefixBreak.message + intact, headHash: prev?.hash ?? null };
  }
  return { ok: true, entries, headHash: prev?.hash ?? null, chainId, ...(legacy > 0 ? { legacy } : {}) };
}

/**
 * Whether the lines before the chain are the genuine prefix its first entry (at `line`) records; null when
 * they are. `found`: the lines there now, with their fingerprint. Without a record (a chain started before
 * entries recorded what preceded them), lines there cannot be told from lines added since: never evidence.
 */
function prefixProblem(recorded: unknown, found: ChainPrefix, line: number, legacy: number): { kind: Extract<ChainVerdict, { ok: false }>['kind']; message: string } | null {
  const lines = found.lines === 1 ? 'Line 1 comes' : `Lines 1 to ${found.lines} come`;
  if (recorded === undefined) {
    if (found.lines === 0) return null;
    return {
      kind: 'unchained',
      message: `${lines} before the chain, and its first entry (line ${line}) records no earlier lines: nothing shows they were there when the chain started (${legacy} of them ${legacy === 1 ? 'reads' : 'read'} as ${legacy === 1 ? 'an entry' : 'entries'}), so they may have been added since. They are not evidence, and receipts do not vouch for them.`,
    };
  }
  if (!isPrefix(recorded)) return { kind: 'edited', message: `Line ${line}, the first entry of the chain, was edited: its record of the lines before it is not readable.` };
  if (found.lines === recorded.lines && found.sha256 === recorded.sha256) return null;
  const said = `its first entry (line ${line}) records ${recorded.lines} ${recorded.lines === 1 ? 'line' : 'lines'} before it`;
  if (found.lines > recorded.lines) return { kind: 'inserted', message: `${lines} before the chain, but ${said}: lines were added before the chain's start. They are not evidence.` };
  if (found.lines < recorded.lines) {
    return { kind: 'removed', message: `The chain's first entry (line ${line}) records ${recorded.lines} lines before it, and only ${found.lines} are there: lines were removed from the start of the trail.` };
  }
  return { kind: 'edited', message: `${lines} before the chain, as many as ${said}, but their fingerprint differs from the one it recorded: they were edited.` };
}

/** The verdict in plain words, for the CLI and logs. */
export function describeVerdict(verdict: ChainVerdict): string {
  if (!verdict.ok) return `NOT verified: ${verdict.message}`;
  const legacy = verdict.legacy
    ? ` (${verdict.legacy} earlier ${verdict.legacy === 1 ? 'line was' : 'lines were'} written before the chain existed: the chain’s first entry records their fingerprint, which still matches; no hash of their own covers them)`
    : '';
  return `Verified, ${verdict.entries} ${verdict.entries === 1 ? 'entry' : 'entries'}, head hash ${verdict.headHash ?? '(none: the trail is empty)'}${legacy}.`;
}
