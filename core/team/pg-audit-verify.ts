import type pg from 'pg';
import type { AuditReading, ChainVerdict } from '../../shared/audit';
import { msg } from '../../shared/messages';
import { breakOf, isChained, verifyChain, type ChainLine, type ChainResume } from '../audit-chain';
import { outcomesMissing, parseAuditText } from '../audit-reader';
import { importJoins, type JoinBreak } from './pg-audit-join';
import { rowsAfter } from './pg-audit-rows';

/**
 * Reading and verifying the team trail: its rows in sequence order are the lines of a trail (line n = the n-th row),
 * judged by the very verifier of audit.jsonl (core/audit-chain.ts, core/audit-reader.ts), then the joins of imported
 * local trails (core/team/pg-audit-join.ts). verify walks the rows a page at a time and holds no more than a page.
 */

export const TEAM_PAGE_ROWS = 10_000;

// A row holding a newline (only a hand in the database puts one there) must stay one line of the reading.
const asOneLine = (line: string): string => (line.includes('\n') ? line.replace(/\n/g, ' ') : line);

/** The join's break as the verdict, when the chain itself holds. */
function withJoins(verdict: ChainVerdict, join: JoinBreak | null): ChainVerdict {
  if (!verdict.ok || !join) return verdict;
  return breakOf('edited', join.line, join.text, verdict.entries, verdict.headHash, { from: join.line });
}

/** The whole team trail as a reading (every entry, oldest first), read from the database a page at a time. */
export async function readTeamTrail(pool: pg.Pool, pageRows = TEAM_PAGE_ROWS): Promise<AuditReading> {
  const lines: string[] = [];
  for (let after = 0; ; ) {
    const rows = await rowsAfter(pool, after, pageRows);
    for (const row of rows) lines.push(asOneLine(row.line));
    if (rows.length < pageRows) break;
    after = (rows[rows.length - 1] as { seq: number }).seq;
  }
  const parsed = parseAuditText(lines.length > 0 ? `${lines.join('\n')}\n` : '');
  lines.length = 0;
  const chain = verifyChain(parsed.chainLines, null, { prefix: parsed.prefix });
  const joins = importJoins();
  for (const line of parsed.chainLines) if (line.kind === 'entry') joins.see(line.line, line.stored);
  return { entries: parsed.entries, corrupt: parsed.corrupt, verdict: withJoins(chain, joins.finish()), outcomeMissing: outcomesMissing(parsed.entries) };
}

/** The team trail's verdict, page by page; `anchor`: a head hash written down earlier, which an entry must still have. */
export async function verifyTeamTrail(pool: pg.Pool, anchor?: string, pageRows = TEAM_PAGE_ROWS): Promise<ChainVerdict> {
  let verdict: ChainVerdict = { ok: true, entries: 0, headHash: null, chainId: null };
  let resume: ChainResume | undefined;
  let position = 0;
  let anchorSeen = false;
  const joins = importJoins();
  for (let after = 0; ; ) {
    const rows = await rowsAfter(pool, after, pageRows);
    if (rows.length === 0) break;
    const parsed = parseAuditText(`${rows.map((row) => asOneLine(row.line)).join('\n')}\n`);
    const lines: ChainLine[] = parsed.chainLines.map((line) => ({ ...line, line: line.line + position }));
    verdict = verifyChain(lines, null, { prefix: position === 0 ? parsed.prefix : null, ...(resume ? { after: resume } : {}) });
    if (!verdict.ok) return verdict;
    let last: { line: number; seq: number } | undefined;
    for (const line of lines) {
      if (line.kind !== 'entry') continue;
      // The chain holds, so an entry's prevHash is its predecessor's hash: the anchor was an entry's hash if some prevHash is it.
      if (anchor !== undefined && line.stored.prevHash === anchor && line.stored.chainId === undefined) anchorSeen = true;
      if (isChained(line.stored)) last = { line: line.line, seq: line.stored.seq };
      joins.see(line.line, line.stored);
    }
    if (last && verdict.headHash) resume = { ...last, hash: verdict.headHash, chainId: verdict.chainId, entries: verdict.entries };
    position += rows.length;
    if (rows.length < pageRows) break;
    after = (rows[rows.length - 1] as { seq: number }).seq;
  }
  if (anchor !== undefined && !anchorSeen && verdict.headHash !== anchor) {
    return breakOf('removed', position + 1, msg('chain.headGone', { hash: anchor, last: position }), verdict.entries, verdict.headHash);
  }
  return withJoins(verdict, joins.finish());
}
