import { canonicalJson, entryHash, isChained, sha256Hex, type ChainLine } from './audit-chain';
import { MAX_FINDINGS, type AnchorFinding, type AnchorProblem, type AuditAnchorRecord, type ChainHead, type TrailHead, type WriteFingerprint } from './audit-anchor';
import { crashEvidence } from './audit-anchor-crash';

/** An acknowledgement found in the trail: who, when, why, and where. */
export interface TrailAcknowledgement {
  at: string;
  by: string;
  reason: string;
  line: number;
}

/** What the anchor checks need of a trail: its chain, its head, each entry's hash and line, the acknowledgements it holds. */
export interface TrailSummary {
  head: TrailHead;
  hashAt(seq: number): string | undefined;
  lineOf(seq: number): number | undefined;
  /** The line after the last one. */
  endLine: number;
  /** Acknowledged findings, by id (the first acknowledgement of each). */
  acknowledgements: ReadonlyMap<string, TrailAcknowledgement>;
  /** The bytes of the whole lines after entry `seq` (after the lines before the chain when `seq` is 0). */
  bytesAfter(seq: number): Buffer;
}

/** The trail as the anchor sees it; `text`: the file's text the lines come from (for the bytes of its last lines). */
export function summarizeTrail(lines: readonly ChainLine[], text = ''): TrailSummary {
  const bySeq = new Map<number, { hash: string; line: number }>();
  const acknowledgements = new Map<string, TrailAcknowledgement>();
  let chainId: string | null = null;
  let head: ChainHead = { seq: 0, headHash: null };
  for (const line of lines) {
    if (line.kind !== 'entry' || !isChained(line.stored)) continue;
    const hash = entryHash(line.stored);
    if (chainId === null && typeof line.stored.chainId === 'string') chainId = line.stored.chainId;
    if (!bySeq.has(line.stored.seq)) bySeq.set(line.stored.seq, { hash, line: line.line });
    head = { seq: line.stored.seq, headHash: hash };
    const acknowledged = acknowledgementOf(line.stored, line.line);
    if (acknowledged && !acknowledgements.has(acknowledged.finding)) acknowledgements.set(acknowledged.finding, acknowledged.said);
  }
  return {
    head: { ...head, chainId },
    hashAt: (seq) => bySeq.get(seq)?.hash,
    lineOf: (seq) => bySeq.get(seq)?.line,
    endLine: (lines[lines.length - 1]?.line ?? 0) + 1,
    acknowledgements,
    bytesAfter(seq) {
      const startLine = seq > 0 ? (bySeq.get(seq)?.line ?? Infinity) + 1 : (bySeq.get(1)?.line ?? Infinity);
      return wholeLinesFrom(text, startLine);
    },
  };
}

function acknowledgementOf(stored: Record<string, unknown>, line: number): { finding: string; said: TrailAcknowledgement } | null {
  const given = stored.acknowledgement as { finding?: unknown; reason?: unknown } | undefined;
  if (stored.action !== 'acknowledge' || typeof given !== 'object' || given === null) return null;
  if (typeof given.finding !== 'string' || typeof given.reason !== 'string' || typeof stored.at !== 'string') return null;
  return { finding: given.finding, said: { at: stored.at, by: typeof stored.operator === 'string' ? stored.operator : '', reason: given.reason, line } };
}

/** The bytes of `text` from the start of `line` (1-based) to its last newline. */
function wholeLinesFrom(text: string, line: number): Buffer {
  if (!Number.isFinite(line)) return Buffer.alloc(0);
  let offset = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return Buffer.alloc(0);
    offset = next + 1;
  }
  return Buffer.from(text.slice(offset, text.lastIndexOf('\n') + 1), 'utf8');
}

const same = (a: ChainHead | undefined, b: ChainHead): boolean => a !== undefined && a.seq === b.seq && a.headHash === b.headHash;

/** Whether the trail's head is where the anchor says (the head it has, or the write it knew under way). */
export function endsWhereAnchored(record: AuditAnchorRecord, head: ChainHead): boolean {
  return same(record.next, head) || (same(record.head, head) && record.next === undefined);
}

const headOnly = ({ seq, headHash, chainId }: TrailHead): TrailHead => ({ seq, headHash, chainId });

/** How the trail differs from what the anchor vouches for; null when it ends where the anchor says. Crash evidence is not looked for here (liveProblem). */
export function anchorProblem(trail: TrailSummary, record: AuditAnchorRecord): AnchorProblem | null {
  const found = trail.head;
  if (endsWhereAnchored(record, found)) return null;
  const { head, next } = record;
  const anchored = { ...head, ...(next ? { next: headOnly(next) } : {}), at: record.at };
  const problem = (kind: AnchorProblem['kind'], range?: { from: number; to: number }): AnchorProblem => ({ kind, anchored, found, ...(range ?? {}) });
  const holdsHead = head.seq === 0 || trail.hashAt(head.seq) === head.headHash;
  const sameChain = head.chainId === null || found.chainId === head.chainId;
  // A write the anchor knew under way, never confirmed: nothing of it is there, or only its first entries.
  if (next && same(head, found)) return problem('unlanded');
  if (next && found.seq > head.seq && found.seq < next.seq && holdsHead && (head.seq > 0 ? sameChain : found.chainId === next.chainId)) return problem('unlanded');
  if (head.seq > 0 && found.seq === 0) return problem('rolled-back');
  if (!sameChain) return problem('rewritten');
  if (found.seq < head.seq) return problem('rolled-back');
  if (!holdsHead) return problem('rewritten');
  // The trail holds the anchored head and goes further than the anchor knows.
  if (next && found.seq >= next.seq) {
    if (trail.hashAt(next.seq) !== next.headHash) return problem('rewritten');
    return problem('unanchored', { from: next.seq + 1, to: found.seq });
  }
  return problem('unanchored', { from: head.seq + 1, to: found.seq });
}

/** The problem as it stands, with what the data folder shows of a write never confirmed (its fragment, when a crash cut it short). */
export async function liveProblem(trail: TrailSummary, record: AuditAnchorRecord, auditPath: string): Promise<AnchorProblem | null> {
  const problem = anchorProblem(trail, record);
  if (problem?.kind !== 'unlanded') return problem;
  const headSeq = record.head.seq;
  const evidence = await crashEvidence({
    auditPath,
    write: record.next?.write,
    landed: trail.bytesAfter(headSeq),
    landedEntries: Math.max(0, trail.head.seq - headSeq),
    firstSeq: headSeq + 1,
  });
  return { ...problem, ...evidence };
}

/** A finding's id: what it is (not when or how it was seen), so the problem found now and the finding a write records of it are one. */
export function findingId(problem: AnchorProblem): string {
  const { kind, anchored, found, from, to } = problem;
  const { seq, headHash, chainId, next, at } = anchored;
  return sha256Hex(canonicalJson({ kind, anchored: { seq, headHash, chainId, next: next && headOnly(next), at }, found: headOnly(found), from, to })).slice(0, 12);
}

/**
 * The findings with one more: when there is no room, acknowledged findings go first (their acknowledgement in the
 * trail says what they were), then the newest takes the last place, so the latest problem is never dropped.
 */
export function keepFinding(findings: readonly AnchorFinding[], finding: AnchorFinding, acknowledged: (id: string) => boolean): AnchorFinding[] {
  let kept = [...findings, finding];
  for (const old of findings) {
    if (kept.length <= MAX_FINDINGS) break;
    if (acknowledged(findingId(old))) kept = kept.filter((f) => f !== old);
  }
  return kept.length <= MAX_FINDINGS ? kept : [...kept.slice(0, MAX_FINDINGS - 1), finding];
}

/** The write as announced: the head it makes and what it writes. */
export interface AnnouncedWrite {
  seq: number;
  headHash: string;
  chainId?: string | undefined;
  write: WriteFingerprint;
}

/**
 * The record an anchored write stores before it lands: the trail's head now, the head the write makes with its
 * fingerprint, and, when the trail was not where the anchor said, a finding that stays. `summary` is read (the
 * whole trail) only when needed: adoption, or a head the anchor does not know.
 */
export async function announceWrite(
  record: AuditAnchorRecord | null,
  prev: ChainHead,
  next: AnnouncedWrite,
  summary: () => Promise<TrailSummary>,
  now: string,
  auditPath: string,
): Promise<AuditAnchorRecord> {
  let prevChain: string | null;
  let findings: AnchorFinding[] = record?.findings ?? [];
  let adopted = record?.adopted;
  if (record && same(record.next, prev)) prevChain = record.next?.chainId ?? null;
  else if (record && same(record.head, prev) && record.next === undefined) prevChain = record.head.chainId;
  else {
    const trail = await summary();
    prevChain = trail.head.chainId;
    if (!record) {
      if (prev.seq > 0) adopted = { at: now, seq: prev.seq };
    } else {
      const problem = await liveProblem(trail, record, auditPath);
      if (problem) findings = keepFinding(findings, { ...problem, foundAt: now }, (id) => trail.acknowledgements.has(id));
    }
  }
  return {
    format: 1,
    head: { ...prev, chainId: prevChain },
    next: { seq: next.seq, headHash: next.headHash, chainId: next.chainId ?? prevChain, write: next.write },
    ...(adopted ? { adopted } : {}),
    findings,
    at: now,
  };
}

/** The record once the announced write has landed: the head it made, nothing under way. */
export function landedRecord(announced: AuditAnchorRecord, now: string): AuditAnchorRecord {
  const { next, adopted, findings } = announced;
  return { format: 1, head: next ? headOnly(next) : announced.head, ...(adopted ? { adopted } : {}), findings, at: now };
}

/** The record verify stores when no anchor is kept yet: the trail's head as it stands, adopted. */
export function adoptTrail(trail: TrailSummary, now: string): AuditAnchorRecord {
  return { format: 1, head: trail.head, ...(trail.head.seq > 0 ? { adopted: { at: now, seq: trail.head.seq } } : {}), findings: [], at: now };
}
