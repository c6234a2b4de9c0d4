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
 * - The first chained entry: seq 1, a random chainId (UUID), prevHash = SHA-256 of the chainId.
 * - Every later entry: seq = previous seq + 1, prevHash = hash of the previous stored entry.
 * - Head hash: the hash of the last chained entry.
 * Lines written before the chain (no `format`) stay readable; the first chained entry after them
 * starts the chain. They are counted as `legacy` in the verdict, not as a break: they were written
 * before the chain existed, and calling them a break would make every upgraded trail fail verify
 * forever, which teaches operators to ignore a failing verify. No hash covers them, and `verify` says so.
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

/** The chain fields an appended entry receives. */
export interface ChainLink {
  format: typeof AUDIT_FORMAT;
  seq: number;
  prevHash: string;
  chainId?: string;
}

export interface ChainedShape {
  format: typeof AUDIT_FORMAT;
  seq: number;
  prevHash: string;
  chainId?: string;
}

export function isChained(value: unknown): value is ChainedShape {
  const v = value as Partial<ChainedShape> | null;
  return typeof v === 'object' && v !== null && v.format === AUDIT_FORMAT && Number.isSafeInteger(v.seq) && (v.seq ?? 0) >= 1 && typeof v.prevHash === 'string';
}

export function startChain(): ChainLink {
  const chainId = randomUUID();
  return { format: AUDIT_FORMAT, seq: 1, chainId, prevHash: chainAnchor(chainId) };
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

/**
 * Walks the chain and names the first break, with its line; `torn` is an incomplete last line.
 * `anchor`: a head hash written down earlier (in a ticket): the chain must still hold that entry,
 * which is how entries removed from the end (where no successor links to them) are caught.
 */
export function verifyChain(lines: ChainLine[], torn: TornTail | null, anchor?: string): ChainVerdict {
  let anchorSeen = false;
  let prev: { line: number; seq: number; hash: string; prevHash: string } | null = null;
  let chainId: string | null = null;
  let legacy = 0;
  let entries = 0;
  const broken = (kind: Extract<ChainVerdict, { ok: false }>['kind'], line: number, message: string): ChainVerdict => ({ ok: false, entries, kind, line, message, headHash: prev?.hash ?? null });
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
  return { ok: true, entries, headHash: prev?.hash ?? null, chainId, ...(legacy > 0 ? { legacy } : {}) };
}

/** The verdict in plain words, for the CLI and logs. */
export function describeVerdict(verdict: ChainVerdict): string {
  if (!verdict.ok) return `NOT verified: ${verdict.message}`;
  const legacy = verdict.legacy ? ` (${verdict.legacy} earlier ${verdict.legacy === 1 ? 'entry was' : 'entries were'} written before the chain existed: readable, but no hash covers them)` : '';
  return `Verified, ${verdict.entries} ${verdict.entries === 1 ? 'entry' : 'entries'}, head hash ${verdict.headHash ?? '(none: the trail is empty)'}${legacy}.`;
}
