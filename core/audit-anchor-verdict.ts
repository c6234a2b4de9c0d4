import type { AcknowledgedFinding, AnchorReport, ChainVerdict, OpenFinding } from '../shared/audit';
import type { MessageText } from '../shared/message-text';
import { msg, wordInEnglish } from '../shared/messages';
import { breakOf } from './audit-chain';
import type { AnchorPlace, AnchorProblem, AuditAnchorRecord } from './audit-anchor';
import { findingId, type TrailSummary } from './audit-anchor-check';

/**
 * The anchor's findings as verify states them: each problem in words (a crash proven by its fragment, a removal with
 * its count, a write that cannot be told either way), what stays open, what an operator acknowledged, and the verdict.
 */

const range = (from: number, to: number): MessageText => (from === to ? msg('anchor.range.one', { from }) : msg('anchor.range.many', { from, to }));
const short = (hash: string | null) => (hash ? `${hash.slice(0, 12)}…` : '—');

/** The problem as a message, with the line where it shows in the trail as it is now; `when`: a write found it then. */
export function describeAnchorProblem(problem: AnchorProblem, trail: TrailSummary, when?: string): { line: number; text: MessageText } {
  const { anchored, found } = problem;
  const held = (head: { seq: number; headHash: string | null }) => msg('anchor.held', { seq: head.seq, hash: short(head.headHash), at: anchored.at });
  const said = ((): { line: number; text: MessageText } => {
    switch (problem.kind) {
      case 'unlanded': {
        const last = anchored.next?.seq ?? anchored.seq + 1;
        const write = range(anchored.seq + 1, last);
        const part = found.seq > anchored.seq ? { landed: range(anchored.seq + 1, found.seq), lost: range(found.seq + 1, last) } : null;
        const at = anchored.at;
        if (problem.crash) {
          const file = problem.crash.fragment;
          return { line: trail.endLine, text: part ? msg('anchor.crashPart', { at, file, ...part }) : msg('anchor.crash', { at, file }) };
        }
        const evidence = problem.short ? msg('anchor.evidence.short', { bytes: problem.short.bytes, file: problem.short.fragment }) : msg('anchor.evidence.none');
        if (part) return { line: trail.endLine, text: msg('anchor.unlandedPart', { range: write, at, ...part, evidence }) };
        const end = found.seq === 0 ? msg('anchor.endsEmpty') : msg('anchor.endsAt', { seq: found.seq });
        return { line: trail.endLine, text: msg('anchor.unlanded', { range: write, at, end, evidence }) };
      }
      case 'rolled-back': {
        // The head the anchor knew landed; a write it still knew under way may have been removed too.
        if (found.seq === 0) return { line: trail.endLine, text: msg('anchor.emptied', { held: held(anchored) }) };
        const count = anchored.seq - found.seq;
        const later = anchored.next;
        return {
          line: trail.endLine,
          text: later
            ? msg('anchor.removedAtLeast', { count, found: found.seq, held: held(anchored), range: range(anchored.seq + 1, later.seq) })
            : msg('anchor.removed', { count, found: found.seq, held: held(anchored) }),
        };
      }
      case 'rewritten': {
        const shown = anchored.next ?? anchored;
        return { line: trail.lineOf(anchored.seq) ?? 1, text: msg('anchor.rewritten', { held: held(shown), now: found.seq === 0 ? msg('anchor.now.none') : msg('anchor.now.entry', { seq: found.seq, hash: short(found.headHash) }) }) };
      }
      case 'unanchored': {
        const shown = anchored.next ?? anchored;
        return { line: trail.lineOf(problem.from ?? 1) ?? trail.endLine, text: msg('anchor.unanchored', { range: range(problem.from ?? 1, problem.to ?? found.seq), held: held(shown) }) };
      }
    }
  })();
  return when ? { line: said.line, text: msg('anchor.foundEarlier', { when, problem: said.text }) } : said;
}

/** What to do about an open finding of this kind. */
export function nextStep(kind: AnchorProblem['kind']): MessageText {
  switch (kind) {
    case 'rolled-back':
      return msg('anchor.next.rolledBack');
    case 'rewritten':
      return msg('anchor.next.rewritten');
    case 'unanchored':
      return msg('anchor.next.unanchored');
    case 'unlanded':
      return msg('anchor.next.unlanded');
  }
}

/** Whether a finding is a crash its fragment proves: no break, nothing to acknowledge. */
const isProvenCrash = (problem: AnchorProblem): boolean => problem.kind === 'unlanded' && problem.crash !== undefined;

/**
 * The verdict with the anchor's view: the chain's own break comes first (it is located); then the trail as it stands
 * against the anchor (`live`, with what the data folder shows) and what anchored writes found before. A proven crash
 * is said and passes; an acknowledged finding is said with who acknowledged it, when and why, and passes; the first
 * finding still open is the verdict. `report` says where the anchor is kept.
 */
export function verdictWithAnchor(verdict: ChainVerdict, trail: TrailSummary, record: AuditAnchorRecord | null, report: AnchorReport, live: AnchorProblem | null): ChainVerdict {
  if (!verdict.ok || !record) return { ...verdict, anchor: report };
  const seen = new Set<string>();
  const all: Array<{ problem: AnchorProblem; id: string; when: string | undefined }> = [];
  for (const [problem, when] of [...(live ? [[live, undefined] as const] : []), ...record.findings.map((f) => [f, f.foundAt] as const)]) {
    const id = findingId(problem);
    if (seen.has(id)) continue;
    seen.add(id);
    all.push({ problem, id, when });
  }
  const crashes: MessageText[] = [];
  const acknowledged: AcknowledgedFinding[] = [];
  const open: Array<OpenFinding & { problem: AnchorProblem; when: string | undefined }> = [];
  for (const { problem, id, when } of all) {
    if (isProvenCrash(problem)) {
      crashes.push(describeAnchorProblem(problem, trail, when).text);
      continue;
    }
    const about: OpenFinding = { finding: id, kind: problem.kind, text: describeAnchorProblem(problem, trail).text, ...(when ? { foundAt: when } : {}) };
    const acknowledgement = trail.acknowledgements.get(id);
    if (acknowledgement) acknowledged.push({ ...about, at: acknowledgement.at, by: acknowledgement.by, reason: acknowledgement.reason, line: acknowledgement.line });
    else open.push({ ...about, next: nextStep(problem.kind), problem, when });
  }
  const anchor: AnchorReport = {
    ...report,
    ...(crashes.length > 0 ? { crashes } : {}),
    ...(acknowledged.length > 0 ? { acknowledged } : {}),
    ...(open.length > 0 ? { open: open.map(({ problem: _problem, when: _when, ...about }) => about) } : {}),
  };
  const first = open[0];
  if (!first) return { ...verdict, anchor };
  const { line, text } = describeAnchorProblem(first.problem, trail, first.when);
  return { ...breakOf(first.problem.kind, line, text, verdict.entries, verdict.headHash), anchor };
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

/** What the anchor says about the trail, in lines for the CLI (after the verdict's own line). */
export function describeAnchor(report: AnchorReport | undefined): string[] {
  if (!report) return [];
  if (report.state === 'unavailable') return [`Anchor: could not be checked — ${report.problem ?? 'it could not be read'}. The chain was checked against itself only.`];
  return [anchorPlace(report), ...(report.crashes ?? []).map(wordInEnglish), ...acknowledgedLines(report.acknowledged ?? []), ...openLines(report.open ?? [])];
}

function anchorPlace(report: AnchorReport): string {
  // Open findings are counted and listed below, each with who found it; here, only those that are settled.
  const settled = report.findings - (report.open ?? []).filter((o) => o.foundAt !== undefined).length;
  const findings = settled > 0 ? ` Writes since have found ${settled} ${settled === 1 ? 'problem' : 'problems'} that ${settled === 1 ? 'is' : 'are'} settled (said below); ${settled === 1 ? 'it stays' : 'they stay'} on record.` : '';
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

/** "1 finding acknowledged on … by …: reason", then what it was. */
function acknowledgedLines(acknowledged: readonly AcknowledgedFinding[]): string[] {
  if (acknowledged.length === 0) return [];
  const one = (a: AcknowledgedFinding) => `on ${a.at} by ${a.by || 'an unnamed operator'}: ${a.reason}`;
  const first = acknowledged[0] as AcknowledgedFinding;
  const head = acknowledged.length === 1 ? [`1 finding acknowledged ${one(first)}`] : [`${acknowledged.length} findings acknowledged:`, ...acknowledged.map((a) => `  Finding ${a.finding}, acknowledged ${one(a)}`)];
  return [...head, ...acknowledged.map((a) => `  Finding ${a.finding} (still on record): ${wordInEnglish(a.text)}`)];
}

function openLines(open: readonly OpenFinding[]): string[] {
  if (open.length === 0) return [];
  return [
    `${open.length} ${open.length === 1 ? 'finding of the anchor is' : 'findings of the anchor are'} open:`,
    ...open.flatMap((o) => [`Open finding ${o.finding} (${o.foundAt ? `found by a write on ${o.foundAt}` : 'found by this check'}): ${wordInEnglish(o.text)}`, ...(o.next ? [`  ${wordInEnglish(o.next)}`] : [])]),
    `Once you know why, acknowledge ${open.length === 1 ? 'it' : 'each'} with its reason: privacy-desk audit acknowledge ${open.length === 1 ? (open[0] as OpenFinding).finding : 'FINDING'} --reason "…". Until then verify fails.`,
  ];
}
