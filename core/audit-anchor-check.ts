import type { AnchorReport, ChainVerdict } from '../shared/audit';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { breakOf, entryHash, isChained, type ChainLine } from './audit-chain';
import { MAX_FINDINGS, type AnchorFinding, type AnchorPlace, type AnchorProblem, type AuditAnchorRecord, type ChainHead, type TrailHead } from './audit-anchor';

/** What the anchor checks need of a trail: its chain, its head, and each entry's hash and line by number. */
export interface TrailSummary {
  head: TrailHead;
  hashAt(seq: number): string | undefined;
  lineOf(seq: number): number | undefined;
  /** The line after the last one. */
  endLine: number;
}

export function summarizeTrail(lines: readonly ChainLine[]): TrailSummary {
  const bySeq = new Map<number, { hash: string; line: number }>();
  let chainId: string | null = null;
  let head: ChainHead = { seq: 0, headHash: null };
  for (const line of lines) {
    if (line.kind !== 'entry' || !isChained(line.stored)) continue;
    const hash = entryHash(line.stored);
    if (chainId === null && typeof line.stored.chainId === 'string') chainId = line.stored.chainId;
    if (!bySeq.has(line.stored.seq)) bySeq.set(line.stored.seq, { hash, line: line.line });
    head = { seq: line.stored.seq, headHash: hash };
  }
  return {
    head: { ...head, chainId },
    hashAt: (seq) => bySeq.get(seq)?.hash,
    lineOf: (seq) => bySeq.get(seq)?.line,
    endLine: (lines[lines.length - 1]?.line ?? 0) + 1,
  };
}

const same = (a: ChainHead | undefined, b: ChainHead): boolean => a !== undefined && a.seq === b.seq && a.headHash === b.headHash;

/** Whether the trail's head is where the anchor says (the head it has, or the write it knew under way). */
export function endsWhereAnchored(record: AuditAnchorRecord, head: ChainHead): boolean {
  return same(record.next, head) || (same(record.head, head) && record.next === undefined);
}

/** How the trail differs from what the anchor vouches for; null when it ends where the anchor says. */
export function anchorProblem(trail: TrailSummary, record: AuditAnchorRecord): AnchorProblem | null {
  const found = trail.head;
  if (endsWhereAnchored(record, found)) return null;
  const anchored = { ...record.head, next: record.next, at: record.at };
  const problem = (kind: AnchorProblem['kind'], range?: { from: number; to: number }): AnchorProblem => ({ kind, anchored, found, ...(range ?? {}) });
  if (same(record.head, found)) return problem('unlanded'); // a write it knew under way is not there
  const { head, next } = record;
  if (head.seq > 0 && found.seq === 0) return problem('rolled-back');
  if (head.chainId !== null && found.chainId !== head.chainId) return problem('rewritten');
  if (found.seq < head.seq) return problem('rolled-back');
  if (head.seq > 0 && trail.hashAt(head.seq) !== head.headHash) return problem('rewritten');
  // The trail holds the anchored head and goes further than the anchor knows.
  if (next && found.seq >= next.seq) {
    if (trail.hashAt(next.seq) !== next.headHash) return problem('rewritten');
    return problem('unanchored', { from: next.seq + 1, to: found.seq });
  }
  return problem('unanchored', { from: head.seq + 1, to: found.seq });
}

/**
 * The record an anchored write stores before it lands: the trail's head now, the head the write makes, and,
 * when the trail was not where the anchor said, a finding that stays. `summary` is read (the whole trail) only
 * when needed: adoption, or a head the anchor does not know.
 */
export async function announceWrite(
  record: AuditAnchorRecord | null,
  prev: ChainHead,
  next: { seq: number; headHash: string; chainId?: string | undefined },
  summary: () => Promise<TrailSummary>,
  now: string,
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
      const problem = anchorProblem(trail, record);
      if (problem) findings = [...findings, { ...problem, foundAt: now }].slice(0, MAX_FINDINGS);
    }
  }
  return {
    format: 1,
    head: { ...prev, chainId: prevChain },
    next: { seq: next.seq, headHash: next.headHash, chainId: next.chainId ?? prevChain },
    ...(adopted ? { adopted } : {}),
    findings,
    at: now,
  };
}

/** The record verify stores when no anchor is kept yet: the trail's head as it stands, adopted. */
export function adoptTrail(trail: TrailSummary, now: string): AuditAnchorRecord {
  return { format: 1, head: trail.head, ...(trail.head.seq > 0 ? { adopted: { at: now, seq: trail.head.seq } } : {}), findings: [], at: now };
}

const range = (from: number, to: number): MessageText => (from === to ? msg('anchor.range.one', { from }) : msg('anchor.range.many', { from, to }));
const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '—');

/** The problem as a message, with the line where it shows in the trail as it is now; `when`: a write found it then. */
export function describeAnchorProblem(problem: AnchorProblem, trail: TrailSummary, when?: string): { line: number; text: MessageText } {
  const { anchored, found } = problem;
  // The furthest head the anchor knew (its write under way, once the trail holds its head) is the one to name.
  const shown = problem.kind === 'unlanded' || !anchored.next ? anchored : anchored.next;
  const held = msg('anchor.held', { seq: shown.seq, hash: short(shown.headHash), at: anchored.at });
  const said = ((): { line: number; text: MessageText } => {
    switch (problem.kind) {
      case 'unlanded':
        return { line: trail.endLine, text: msg('anchor.unlanded', { found: found.seq, held, range: range(anchored.seq + 1, anchored.next?.seq ?? anchored.seq + 1) }) };
      case 'rolled-back':
        return { line: trail.endLine, text: found.seq === 0 ? msg('anchor.emptied', { held }) : msg('anchor.rolledBack', { found: found.seq, held }) };
      case 'rewritten':
        return { line: trail.lineOf(anchored.seq) ?? 1, text: msg('anchor.rewritten', { held, now: found.seq === 0 ? msg('anchor.now.none') : msg('anchor.now.entry', { seq: found.seq, hash: short(found.headHash) }) }) };
      case 'unanchored':
        return { line: trail.lineOf(problem.from ?? 1) ?? trail.endLine, text: msg('anchor.unanchored', { range: range(problem.from ?? 1, problem.to ?? found.seq), held }) };
    }
  })();
  return when ? { line: said.line, text: msg('anchor.foundEarlier', { when, problem: said.text }) } : said;
}

/**
 * The verdict with the anchor's view: the chain's own break comes first (it is located); then the trail as it
 * stands against the anchor; then what anchored writes found before. `report` says where the anchor is kept.
 */
export function verdictWithAnchor(verdict: ChainVerdict, trail: TrailSummary, record: AuditAnchorRecord | null, report: AnchorReport): ChainVerdict {
  const withReport = { ...verdict, anchor: report };
  if (!verdict.ok || !record) return withReport;
  const live = anchorProblem(trail, record);
  const first = live ? { problem: live, when: undefined } : record.findings[0] ? { problem: record.findings[0], when: record.findings[0].foundAt } : null;
  if (!first) return withReport;
  const { line, text } = describeAnchorProblem(first.problem, trail, first.when);
  return { ...breakOf(first.problem.kind === 'unlanded' ? 'rolled-back' : first.problem.kind, line, text, verdict.entries, verdict.headHash), anchor: report };
}

/** Where the anchor is kept and what it says, for the verdict. */
export function anchorReport(place: AnchorPlace, record: AuditAnchorRecord | null, state: AnchorReport['state']): AnchorReport {
  return {
    store: place.kind,
    state,
    ...(place.problem ? { problem: place.problem } : {}),
    ...(record?.adopted ? { adopted: record.adopted } : {}),
    findings: record?.findings.length ?? 0,
  };
}

/** What the anchor says about the trail, in a sentence for the CLI (after the verdict's own line). */
export function describeAnchor(report: AnchorReport | undefined): string | undefined {
  if (!report) return undefined;
  if (report.state === 'unavailable') return `Anchor: could not be checked — ${report.problem ?? 'it could not be read'}. The chain was checked against itself only.`;
  const findings = report.findings > 0 ? ` Writes since have found ${report.findings} ${report.findings === 1 ? 'problem' : 'problems'} (the first is the verdict).` : '';
  const trouble = report.problem && report.store === 'keychain' ? ` The last write could not keep it: ${report.problem}.` : '';
  if (report.store === 'session') {
    const why = report.problem ? ` (${report.problem.replace(/\.$/, '')})` : '';
    const checked = report.state === 'checked' ? ' It was checked against the head kept since this session began.' : '';
    return `Anchor: for this session only — no keychain is in use${why}, so a rollback or a rewrite of the file between sessions cannot be told.${checked}${findings}`;
  }
  if (report.state === 'adopted') return 'Anchor: none was kept for this data folder, so the OS keychain keeps the trail’s head from now on, as it stands; later checks compare with it.';
  const since = report.adopted ? ` It was first kept on ${report.adopted.at}, from the trail as it stood then (entries 1 to ${report.adopted.seq} were taken as found).` : '';
  return `Anchor (the OS keychain): checked.${since}${findings}${trouble}`;
}
