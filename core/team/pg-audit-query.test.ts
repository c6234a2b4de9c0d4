import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesAuditFilter, type AuditEntry, type AuditFilter } from '../../shared/audit';
import { AUDIT_COUNT_CAP } from '../../shared/audit-query';
import { fillAuditTrail, insertAuditEntries } from '../../tests/support/audit-fill';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { auditCountSql, auditDayBoundsSql, auditFilterSql, auditPageSql, createPgAuditQuery, seqStretch } from './pg-audit-query';
import { openTeamDatabase, type TeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

const skip = pgSkipReason();

const at = (day: string, time = '10:00:00.000', offset = '+01:00') => `${day}T${time}${offset}`;
const base = { profileId: 'p1', profileName: 'One', baseUrl: 'http://127.0.0.1:4010', operator: 'dpo', appVersion: 'test', via: 'app' } as const;
const entry = (n: number, more: Partial<AuditEntry>): AuditEntry => ({ ...base, at: at('2026-11-21'), actId: `act-${n}`, action: 'delete', outcome: 'done', uid: `user-${n}`, ...more });

// Every way the one rule (matchesAuditFilter) can be met or missed: references in any case and with any of the spaces
// JavaScript's trim() removes, accented and special case mappings, uids that differ by case or a space, days at the edge.
const FIXTURE: AuditEntry[] = [
  entry(1, { reference: 'REQ-12', outcome: 'attempted' }),
  entry(1, { reference: 'REQ-12' }),
  entry(2, { reference: 'req-12', at: at('2026-11-20', '23:59:59.999') }),
  entry(3, { reference: '  REQ-12\t', at: at('2026-11-22', '00:00:00.000', '-05:00') }),
  entry(4, { reference: '\u00a0Req-12\u2003', action: 'anonymize' }),
  entry(5, { reference: 'REQ-123', action: 'logout' }),
  entry(6, { reference: 'Ré-7', uid: 'zoë' }),
  entry(7, { reference: 'RÉ-7', uid: 'Zoë' }),
  entry(8, { reference: 'STRASSE' }),
  entry(9, { reference: 'straße', profileId: 'p2' }),
  entry(10, { reference: 'ΟΔΟΣ', profileId: 'p2', outcome: 'refused' }),
  entry(11, { reference: 'İstanbul' }),
  entry(12, { uid: 'alice' }),
  entry(13, { uid: 'Alice' }),
  entry(14, { uid: 'alice ', outcome: 'not-sent' }),
  entry(15, { uid: 'alice', reference: '', outcome: 'unknown' }),
  entry(16, { action: 'batch', outcome: 'summary', uid: '', actId: undefined, jobId: 'job-1', via: 'batch' }),
  entry(17, { action: 'request', outcome: 'done', uid: '', profileId: '', actId: undefined }),
  entry(18, { at: at('2026-12-01'), outcome: 'verification', verification: 'verified', uid: 'user-1', actId: 'act-1' }),
];

const FILTERS: AuditFilter[] = [
  {},
  { reference: 'req-12' },
  { reference: ' REQ-12 ' },
  { reference: 'REQ-1' },
  { reference: 'ré-7' },
  { reference: 'RÉ-7' },
  { reference: 'strasse' },
  { reference: 'STRAßE' },
  { reference: 'οδοσ' },
  { reference: 'οδος' },
  { reference: 'i̇stanbul' },
  { reference: '   ' },
  { uid: 'alice' },
  { uid: 'Alice' },
  { uid: 'alice ' },
  { uid: 'zoë' },
  { since: '2026-11-21' },
  { until: '2026-11-21' },
  { since: '2026-11-21', until: '2026-11-21' },
  { since: '2026-11-22T08:00:00Z' },
  { operation: 'anonymize' },
  { operation: 'batch' },
  { outcome: 'attempted' },
  { outcome: 'verification' },
  { profileId: 'p2' },
  { profileId: 'p2', outcome: 'refused', reference: 'ΟΔΟΣ' },
  { operation: 'delete', outcome: 'done', uid: 'user-1', since: '2026-11-01', until: '2026-12-31' },
];

describe.skipIf(skip !== null)('the team trail read in pages, filtered by the database', () => {
  let cluster: PgCluster;
  const opened: TeamDatabase[] = [];
  const open = async (name: string) => {
    const db = await openTeamDatabase(parseTeamDatabaseUrl(await cluster.createDatabase(name)), { password: cluster.password });
    opened.push(db);
    return db;
  };
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close()));
    await cluster?.destroy();
  });

  it('keeps exactly the entries matchesAuditFilter keeps, in SQL and page after page, with the same count', async () => {
    const db = await open('fixture');
    await insertAuditEntries(db.pool, FIXTURE);
    const query = createPgAuditQuery(db);
    for (const filter of FILTERS) {
      const expected = FIXTURE.flatMap((candidate, index) => (matchesAuditFilter(candidate, filter) ? [index + 1] : []));
      // The SQL alone, without the rule's last word that the query adds.
      const values: unknown[] = [];
      const clauses = auditFilterSql(filter, values);
      const sql = `SELECT seq FROM audit_entries${clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''} ORDER BY seq`;
      const { rows } = await db.pool.query<{ seq: string }>(sql, values);
      expect(rows.map((row) => Number(row.seq)), JSON.stringify(filter)).toEqual(expected);
      // Page by page, three at a time, newest first: every match once, each page's acts whole.
      const seen = new Set<number>();
      let matched = 0;
      let cursor: number | undefined;
      for (;;) {
        const page = await query.queryPage({ filter, cursor, limit: 3 });
        if (cursor === undefined) expect(page.count, JSON.stringify(filter)).toEqual({ value: expected.length, exact: true });
        matched += page.matched;
        for (const shown of page.entries) if (matchesAuditFilter(shown, filter)) seen.add(shown.line);
        for (const shown of page.entries) {
          if (!shown.actId) continue;
          const wholeAct = FIXTURE.flatMap((candidate, index) => (candidate.actId === shown.actId ? [index + 1] : []));
          expect(page.entries.filter((other) => other.actId === shown.actId).map((other) => other.line)).toEqual(wholeAct);
        }
        if (page.nextCursor === null) break;
        cursor = page.nextCursor;
      }
      expect([...seen].sort((a, b) => a - b), JSON.stringify(filter)).toEqual(expected);
      expect(matched, JSON.stringify(filter)).toBe(expected.length);
    }
  });

  it('answers the first, a filtered and a deep page of a 200,000-entry trail from the indexes, never reading the table through', async () => {
    const db = await open('large');
    const size = 200_000;
    await fillAuditTrail(db.pool, size);
    const query = createPgAuditQuery(db);
    const limit = 100;
    const cases: Array<{ name: string; filter: AuditFilter; cursor?: number; readAtMost: number }> = [
      { name: 'first page', filter: {}, readAtMost: limit + 1 },
      { name: 'deep page', filter: {}, cursor: 1_000, readAtMost: limit + 1 },
      { name: 'a uid', filter: { uid: 'user-4242' }, readAtMost: limit + 1 },
      { name: 'a reference, any case', filter: { reference: 'req-77' }, readAtMost: limit + 1 },
      { name: 'refused deletes', filter: { operation: 'delete', outcome: 'refused' }, readAtMost: limit + 1 },
            // A period is read within its own stretch of the chain (2,880 entries a day here), whatever lies after it.
      { name: 'one day', filter: { since: '2025-01-20', until: '2025-01-20' }, readAtMost: 2_880 },
      { name: 'a week, refused', filter: { since: '2025-01-10', until: '2025-01-16', outcome: 'refused' }, readAtMost: 7 * 2_880 },
      { name: 'since a day', filter: { since: '2025-02-01' }, readAtMost: limit + 1 },
    ];
    for (const { name, filter, cursor, readAtMost } of cases) {
      const plan = await explain(db.pool, auditPageSql({ filter, cursor, limit }, await seqStretch(db.pool, filter)));
      const bounds = auditDayBoundsSql(filter);
      // A few index probes a day of the range (the 69 days of this trail: a few hundred rows at most).
      if (bounds) expect((await explain(db.pool, bounds)).rowsRead, `${name}: finding its stretch`).toBeLessThanOrEqual(1_000);
      expect(plan.seqScans, name).toEqual([]);
      expect(plan.rowsRead, name).toBeLessThanOrEqual(readAtMost);
      const page = await query.queryPage({ filter, cursor, limit });
      expect(page.matched, name).toBeGreaterThan(0);
      expect(page.entries.length, name).toBeLessThanOrEqual(limit * 8);
      expect(page.entries.every((shown) => matchesAuditFilter(shown, filter) || page.entries.some((other) => other.actId === shown.actId && matchesAuditFilter(other, filter))), name).toBe(true);
    }
    // The count stops at the cap rather than counting a hundred thousand rows (a scan that stops early may be a plain one).
    const counted = await explain(db.pool, auditCountSql({ outcome: 'attempted' }));
    expect(counted.rowsRead).toBeLessThanOrEqual(3 * (AUDIT_COUNT_CAP + 1));
    expect((await query.queryPage({ filter: { outcome: 'attempted' }, limit })).count).toEqual({ value: AUDIT_COUNT_CAP, exact: false });
    expect((await query.queryPage({ filter: {}, limit })).count).toEqual({ value: size, exact: true });
    // Deep in the trail, the page starts right below its cursor.
    const deep = await query.queryPage({ filter: {}, cursor: 1_000, limit });
    expect(deep.entries.filter((shown) => shown.line < 1_000).at(-1)?.line).toBe(999);
  }, 120_000);
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** What the server did for a query: plain scans of a table, and the rows its scans read (kept or removed by a filter). */
async function explain(pool: pg.Pool, { text, values }: { text: string; values: unknown[] }) {
  const { rows } = await pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
  const seqScans: string[] = [];
  let rowsRead = 0;
  const walk = (node: PlanNode) => {
    if (node['Node Type'] === 'Seq Scan') seqScans.push(node['Relation Name'] ?? '?');
    if (/Scan$/.test(node['Node Type']) && node['Node Type'] !== 'Bitmap Index Scan') rowsRead += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(rows[0]!['QUERY PLAN'][0]!.Plan);
  return { seqScans, rowsRead };
}
