import type pg from 'pg';
import type { AuditReading, ChainVerdict } from '../../shared/audit';
import { msg } from '../../shared/messages';
import { breakOf, isChained, verifyChain, type ChainLine, type ChainResume } from '../audit-chain';
import { outcomesMissing, parseAuditText } from '../audit-reader';
import { importJoins, type JoinBreak } from './pg-audit-join';
import { headNow, rowsAfter, type ChainHeadRow } from './pg-audit-rows';
import { teamReadError } from './pg-audit-write-error';
import { onOneConnection, type TeamDatabase } from './team-database';

/**
 * Reading and verifying the team trail: its rows in sequence order are the lines of a trail (line n = the n-th row),
 * judged by the very verifier of audit.jsonl (core/audit-chain.ts, core/audit-reader.ts), then the joins of imported
 * local trails (core/team/pg-audit-join.ts), then the chain's head row: the last entry must be the one it records, so
 * entries taken off the end are found (the head is what the file's keychain anchor is to audit.jsonl). Each reading
 * is one snapshot (REPEATABLE READ): rows and head as of one moment, whoever appends meanwhile. verify walks the rows
 * a page at a time and holds no more than a page.
 */

export const TEAM_PAGE_ROWS = 10_000;

// A row holding a newline (only a hand in the database puts one there) must stay one line of the reading.
const asOneLine = (line: string): string => (line.includes('\n') ? line.replace(/\n/g, ' ') : line);

/** `task` on one connection in a read-only snapshot; a failure is the team database's, said as a read. */
export function inSnapshot<T>(db: TeamDatabase, task: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const asRead = (error: unknown) => teamReadError(db.where, error);
  return onOneConnection(db.pool, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', task, { notConnected: asRead, failed: asRead });
}

/** The chain's verdict held against its head row: the last entry (`lastSeq`, the verdict's head hash) must be the one it records. */
function withHead(verdict: ChainVerdict, head: ChainHeadRow, lastSeq: number, lines: number): ChainVerdict {
  if (!verdict.ok || (head.seq === lastSeq && head.hash === verdict.headHash)) return verdict;
  return breakOf('removed', lines + 1, msg('team.headMismatch', { last: lastSeq, seq: head.seq }), verdict.entries, verdict.headHash);
}

/** The join's break as the verdict, when the chain itself holds. */
function withJoins(verdict: ChainVerdict, join: JoinBreak | null): ChainVerdict {
  if (!verdict.ok || !join) return verdict;
  return breakOf('edited', join.line, join.text, verdict.entries, verdict.headHash, { from: join.line });
}

/** The whole team trail as a reading (every entry, oldest first), read from the database a page at a time. */
export function readTeamTrail(db: TeamDatabase, pageRows = TEAM_PAGE_ROWS): Promise<AuditReading> {
  return inSnapshot(db, async (client) => {
    const head = await headNow(client);
    const lines: string[] = [];
    let lastSeq = 0;
    for (let after = 0; ; ) {
      const rows = await rowsAfter(client, after, pageRows);
      for (const row of rows) lines.push(asOneLine(row.line));
      if (rows.length > 0) lastSeq = (rows[rows.length - 1] as { seq: number }).seq;
      if (rows.length < pageRows) break;
      after = lastSeq;
    }
    const parsed = parseAuditText(lines.length > 0 ? `${lines.join('\n')}\n` : '');
    const count = lines.length;
    lines.length = 0;
    const chain = withHead(verifyChain(parsed.chainLines, null, { prefix: parsed.prefix }), head, lastSeq, count);
    const joins = importJoins();
    for (const line of parsed.chainLines) if (line.kind === 'entry') joins.see(line.line, line.stored);
    return { entries: parsed.entries, corrupt: parsed.corrupt, verdict: withJoins(chain, joins.finish()), outcomeMissing: outcomesMissing(parsed.entries) };
  });
}

/** The team trail's verdict, page by page; `anchor`: a head hash written down earlier, which an entry must still have. */
export function verifyTeamTrail(db: TeamDatabase, anchor?: string, pageRows = TEAM_PAGE_ROWS): Promise<ChainVerdict> {
  return inSnapshot(db, (client) => verifyRows(client, anchor, pageRows));
}

async function verifyRows(client: pg.PoolClient, anchor: string | undefined, pageRows: number): Promise<ChainVerdict> {
  const head = await headNow(client);
  let lastSeq = 0;
  let verdict: ChainVerdict = { ok: true, entries: 0, headHash: null, chainId: null };
  let resume: ChainResume | undefined;
  let position = 0;
  let anchorSeen = false;
  const joins = importJoins();
  for (let after = 0; ; ) {
    const rows = await rowsAfter(client, after, pageRows);
    if (rows.length === 0) break;
    lastSeq = (rows[rows.length - 1] as { seq: number }).seq;
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
  return withJoins(withHead(verdict, head, lastSeq, position), joins.finish());
}
