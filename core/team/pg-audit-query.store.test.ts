import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesAuditFilter, type AuditFilter, type AuditRecord } from '../../shared/audit';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { openPgAuditLog } from './pg-audit-log';
import { createPgAuditQuery } from './pg-audit-query';
import { openTeamDatabase, type TeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

const skip = pgSkipReason();

const act = (n: number, more: Partial<AuditRecord> = {}) => {
  const common = { actId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, action: 'anonymize', uid: `user-${n % 4}`, profileId: `p${n % 2}`, profileName: 'P', baseUrl: 'http://127.0.0.1:4010', operator: `agent-${n % 3}`, appVersion: 'test', via: 'app', at: `2026-11-${20 + (n % 3)}T10:00:00.000+01:00`, ...(n % 5 === 0 ? { reference: ` Req-${n % 10} ` } : {}), ...more } as const;
  return [{ ...common, outcome: 'attempted' }, { ...common, outcome: n % 7 === 0 ? 'refused' : 'done', status: n % 7 === 0 ? 403 : 200 }] as AuditRecord[];
};

describe.skipIf(skip !== null)('the console’s pages over entries the team audit store wrote', () => {
  let cluster: PgCluster;
  let db: TeamDatabase;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
    db = await openTeamDatabase(parseTeamDatabaseUrl(cluster.url), { password: cluster.password });
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await cluster?.destroy();
  });

  it('finds what the rule finds in the trail as read, each act whole, at the lines verify names', async () => {
    const audit = openPgAuditLog(db);
    for (let n = 1; n <= 40; n += 1) {
      const [attempted, outcome] = act(n);
      await audit.append(attempted!);
      await audit.append(outcome!);
    }
    // A batch summary: no act id, no uid.
    await audit.append({ ...act(41)[1]!, actId: '', action: 'batch', outcome: 'summary', uid: '', via: 'batch', jobId: 'job-1' } as AuditRecord);
    const reading = await audit.read();
    expect(reading.verdict.ok).toBe(true);
    const query = createPgAuditQuery(db);
    const filters: AuditFilter[] = [{}, { reference: 'REQ-0' }, { uid: 'user-1', outcome: 'refused' }, { profileId: 'p1', since: '2026-11-21' }, { operation: 'batch' }, { until: '2026-11-20' }];
    for (const filter of filters) {
      const expected = reading.entries.filter((entry) => matchesAuditFilter(entry, filter));
      const seen = new Map<number, unknown>();
      let matched = 0;
      let cursor: number | undefined;
      do {
        const page = await query.queryPage({ filter, cursor, limit: 7 });
        if (cursor === undefined) expect(page.count, JSON.stringify(filter)).toEqual({ value: expected.length, exact: true });
        matched += page.matched;
        for (const entry of page.entries) {
          if (matchesAuditFilter(entry, filter)) seen.set(entry.line, entry);
          if (entry.actId) expect(page.entries.filter((other) => other.actId === entry.actId), `act ${entry.actId}`).toHaveLength(2);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor !== undefined);
      expect(matched, JSON.stringify(filter)).toBe(expected.length);
      // The same entries at the same lines as the trail read whole (and verified) names them.
      expect([...seen.keys()].sort((a, b) => a - b), JSON.stringify(filter)).toEqual(expected.map((entry) => entry.line));
      for (const entry of expected) expect(seen.get(entry.line)).toMatchObject({ seq: entry.seq, actId: entry.actId, outcome: entry.outcome, desktop: db.desktop, dbRole: db.role });
    }
    const first = await query.queryPage({ filter: {}, limit: 5 });
    expect(first.head).toEqual({ entries: 81, hash: reading.verdict.headHash });
  });
});
