import type pg from 'pg';
import { matchesAuditFilter, type AuditEntry, type AuditEntryAt, type AuditFilter, type CorruptAuditLine } from '../../shared/audit';
import { AUDIT_COUNT_CAP, type AuditQuery, type AuditQueryInput, type AuditQueryPage } from '../../shared/audit-query';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { teamStoreError, type TeamDatabase } from './team-database';

/** Other entries of the acts on a page fetched at most, per entry of the page (an act: a logout, an erasure, its check). */
const COMPANIONS_PER_ENTRY = 8;
const EXCERPT = 120;

/**
 * The SQL form of matchesAuditFilter (shared/audit.ts), on the columns the indexes of migrations/audit-query.ts cover:
 * dates on the day `at` was written with (its first ten characters, compared as text), operation, outcome, profile and
 * uid exactly, the reference trimmed and in lower case on both sides (audit_reference_key). Empty fields do not filter.
 */
export function auditFilterSql(filter: AuditFilter, params: unknown[]): string[] {
  const clauses = dayRangeSql(filter, params);
  const bind = (value: unknown) => `$${params.push(value)}`;
  if (filter.operation) clauses.push(`action = ${bind(filter.operation)}`);
  if (filter.outcome) clauses.push(`outcome = ${bind(filter.outcome)}`);
  if (filter.profileId) clauses.push(`profile_id = ${bind(filter.profileId)}`);
  if (filter.uid) clauses.push(`uid = ${bind(filter.uid)}`);
  if (filter.reference?.trim().toLowerCase()) clauses.push(`audit_reference_key(reference) = audit_reference_key(${bind(filter.reference)})`);
  return clauses;
}

const DAY = 'left(at, 10) COLLATE "C"';

function dayRangeSql(filter: AuditFilter, params: unknown[]): string[] {
  const clauses: string[] = [];
  if (filter.since) clauses.push(`${DAY} >= $${params.push(filter.since.slice(0, 10))} COLLATE "C"`);
  if (filter.until) clauses.push(`${DAY} <= $${params.push(filter.until.slice(0, 10))} COLLATE "C"`);
  return clauses;
}

/**
 * Where the days of a date filter lie in the chain: the least and greatest seq of an entry written on one of them.
 * Entries follow time, so a past period is a stretch of seq, but not exactly (desktops' clocks and offsets differ), and
 * a planner that assumes matches are spread evenly reads every newer entry before the period's first (142,000 rows
 * for one day of a 200,000-entry trail). Found exactly with a few probes of the (day, seq) index a day in the range
 * (a loose index scan over the days there are); null when no entry falls in the range.
 */
export function auditDayBoundsSql(filter: AuditFilter): { text: string; values: unknown[] } | null {
  const values: unknown[] = [];
  const range = dayRangeSql(filter, values).join(' AND ');
  if (!range) return null;
  const text = `WITH RECURSIVE days(day) AS (
      (SELECT ${DAY} FROM audit_entries WHERE ${range} ORDER BY 1 LIMIT 1)
      UNION ALL
      SELECT (SELECT ${DAY} FROM audit_entries WHERE ${range} AND ${DAY} > days.day ORDER BY 1 LIMIT 1) FROM days WHERE days.day IS NOT NULL)
    SELECT min(stretch.lo) AS lo, max(stretch.hi) AS hi FROM days
      CROSS JOIN LATERAL (SELECT min(seq) AS lo, max(seq) AS hi FROM audit_entries WHERE ${DAY} = days.day) AS stretch
    WHERE days.day IS NOT NULL`;
  return { text, values };
}

/** The stretch of seq a date filter's entries lie in (auditDayBoundsSql); 'none' when no entry does. */
export type SeqStretch = { lo: number; hi: number } | 'none' | undefined;

function stretchSql(stretch: SeqStretch, values: unknown[]): string[] {
  if (stretch === undefined) return [];
  if (stretch === 'none') return ['FALSE'];
  return [`seq BETWEEN $${values.push(stretch.lo)} AND $${values.push(stretch.hi)}`];
}

interface Row {
  seq: string;
  line: string;
}

/** A stored row as the console reads it: the entry its line holds, at its seq; or why it cannot be read. */
function readRow(row: Row): { entry: AuditEntryAt } | { corrupt: CorruptAuditLine } {
  const seq = Number(row.seq);
  try {
    const value: unknown = JSON.parse(row.line);
    if (value && typeof value === 'object' && !Array.isArray(value)) return { entry: { ...(value as AuditEntry), line: seq } };
  } catch {
    // said below, as a corrupt row
  }
  return { corrupt: { line: seq, problem: 'not a JSON object', problemText: msg('auditLine.notJson'), excerpt: row.line.slice(0, EXCERPT) } };
}

/**
 * The team trail in pages, filtered in the database: one keyset page newest first (seq below the cursor, read from
 * the index of the filter), the rest of the acts it touches, and on a first page a count that stops at
 * AUDIT_COUNT_CAP. All in one read-only snapshot, so the page, the count and the head agree. Nothing reads the
 * whole table, whatever its size (core/team/pg-audit-query.test.ts checks the plans on 200,000 rows).
 */
export function createPgAuditQuery(db: Pick<TeamDatabase, 'pool' | 'where'>): AuditQuery {
  return {
    kind: 'team',
    where: db.where,
    async queryPage(input) {
      let client: pg.PoolClient;
      try {
        client = await db.pool.connect();
      } catch (error) {
        throw teamStoreError(db.where, error, 'connect');
      }
      let broken = false;
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const page = await readPage(client, db.where, input);
        await client.query('COMMIT');
        return page;
      } catch (error) {
        broken = true;
        await client.query('ROLLBACK').catch(() => undefined);
        if (error instanceof PrivacyDeskError) throw error;
        throw new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.readFailed', { where: db.where, why: reasonOf(error) }) }, { cause: error });
      } finally {
        client.release(broken);
      }
    },
  };
}

/** One page's query: the rows the filter keeps before the cursor, newest first, one more than asked (is there a next page?). */
export function auditPageSql({ filter, cursor, limit }: AuditQueryInput, stretch?: SeqStretch): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const condition = [...auditFilterSql(filter, values), ...stretchSql(stretch, values)];
  if (cursor !== undefined) condition.push(`seq < $${values.push(cursor)}`);
  const text = `SELECT seq, line FROM audit_entries${condition.length ? ` WHERE ${condition.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT $${values.push(limit + 1)}`;
  return { text, values };
}

/** The count of a first page: the rows the filter keeps, read up to one past AUDIT_COUNT_CAP. */
export function auditCountSql(filter: AuditFilter, stretch?: SeqStretch): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const clauses = [...auditFilterSql(filter, values), ...stretchSql(stretch, values)];
  const text = `SELECT count(*) AS n FROM (SELECT 1 FROM audit_entries${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''} LIMIT $${values.push(AUDIT_COUNT_CAP + 1)}) AS kept`;
  return { text, values };
}

async function readPage(client: pg.PoolClient, where: string, input: AuditQueryInput): Promise<AuditQueryPage> {
  const { filter, cursor, limit } = input;
  const filtered = auditFilterSql(filter, []).length > 0;
  const stretch = await seqStretch(client, filter);
  const found = (await client.query<Row>(auditPageSql(input, stretch))).rows;
  const more = found.length > limit;
  const rows = more ? found.slice(0, limit) : found;
  const entries = new Map<number, AuditEntryAt>();
  const corrupt: CorruptAuditLine[] = [];
  let matched = 0;
  for (const row of rows) {
    const read = readRow(row);
    if ('corrupt' in read) corrupt.push(read.corrupt);
    // The SQL is the rule's twin; the rule itself has the last word on what a page shows as matching.
    else if (matchesAuditFilter(read.entry, filter)) {
      entries.set(read.entry.line, read.entry);
      matched += 1;
    }
  }
  const acts = new Set([...entries.values()].flatMap((entry) => (entry.actId ? [entry.actId] : [])));
  if (acts.size > 0) {
    const companions = await client.query<Row>('SELECT seq, line FROM audit_entries WHERE audit_act_id(line) = ANY($1::text[]) ORDER BY seq LIMIT $2', [[...acts], acts.size * COMPANIONS_PER_ENTRY]);
    for (const row of companions.rows) {
      const read = readRow(row);
      if ('entry' in read && !entries.has(read.entry.line) && read.entry.actId && acts.has(read.entry.actId)) entries.set(read.entry.line, read.entry);
    }
  }
  const head = (await client.query<{ seq: string; hash: string | null }>('SELECT seq, hash FROM audit_head')).rows[0];
  const headEntries = Number(head?.seq ?? 0);
  let count: AuditQueryPage['count'];
  if (cursor === undefined) {
    if (!filtered) count = { value: headEntries, exact: true };
    else {
      const value = Number((await client.query<{ n: string }>(auditCountSql(filter, stretch))).rows[0]?.n ?? 0);
      count = value > AUDIT_COUNT_CAP ? { value: AUDIT_COUNT_CAP, exact: false } : { value, exact: true };
    }
  }
  const last = rows.at(-1);
  return {
    store: 'team',
    where,
    entries: [...entries.values()].sort((a, b) => a.line - b.line),
    matched,
    nextCursor: more && last ? Number(last.seq) : null,
    ...(count ? { count } : {}),
    head: { entries: headEntries, hash: head?.hash ?? null },
    corrupt,
  };
}

/** The stretch of seq a date filter's entries lie in, or undefined when the filter names no date. */
export async function seqStretch(client: pg.PoolClient | pg.Pool, filter: AuditFilter): Promise<SeqStretch> {
  const sql = auditDayBoundsSql(filter);
  if (!sql) return undefined;
  const bounds = (await client.query<{ lo: string | null; hi: string | null }>(sql)).rows[0];
  return bounds?.lo == null || bounds.hi == null ? 'none' : { lo: Number(bounds.lo), hi: Number(bounds.hi) };
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 160) : String(error);
}
