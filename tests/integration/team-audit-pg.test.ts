import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { entryHash } from '../../core/audit-chain';
import { openAuditLog } from '../../core/audit-log';
import { buildAuditExport } from '../../core/audit-export';
import { importLocalAuditLog, importLocalTrail } from '../../core/team/pg-audit-import';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { auditEntry } from './audit-store-suite';

const skip = pgSkipReason();

describe.skipIf(skip !== null)('the team audit trail on a real PostgreSQL server', () => {
  let cluster: PgCluster;
  let count = 0;
  const opened: TeamDatabase[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => undefined)));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const freshDatabase = async () => {
    const db = await openTeamDatabase(parseTeamDatabaseUrl(await cluster.createDatabase(`pg_audit_${++count}`)), { password: cluster.password });
    opened.push(db);
    return db;
  };
  /** As a superuser can: the append-only trigger switched off for one statement. */
  const asSuperuser = (db: TeamDatabase, sql: string, params: unknown[] = []) =>
    db.transaction(async (client) => {
      await client.query('ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only');
      await client.query(sql, params);
      await client.query('ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only');
    });

  it('names the desktop and the database role of each entry beside the OS user, in the reading and in both exports', async () => {
    const db = await freshDatabase();
    const store = openPgAuditLog(db);
    await store.append(auditEntry('u1', 'attempted', { operator: 'agent-1' }));
    const reading = await store.read();
    expect(reading.entries[0]).toMatchObject({ operator: 'agent-1', desktop: db.desktop, dbRole: 'desk' });
    const { rows } = await db.pool.query<{ desktop: string; db_role: string }>('SELECT desktop, db_role FROM audit_entries');
    expect(rows).toEqual([{ desktop: db.desktop, db_role: 'desk' }]);
    const csv = Papa.parse<Record<string, string>>(buildAuditExport(reading, { format: 'csv', exportedAt: '2026-11-24T10:00:00Z' }).content.trim(), { header: true }).data;
    expect(csv[0]).toMatchObject({ operator: 'agent-1', desktop: db.desktop, dbRole: 'desk', verified: 'yes' });
    const json = JSON.parse(buildAuditExport(reading, { format: 'json', exportedAt: '2026-11-24T10:00:00Z' }).content) as { entries: Array<Record<string, unknown>> };
    expect(json.entries[0]).toMatchObject({ desktop: db.desktop, dbRole: 'desk' });
  });

  it('verifies a page of rows at a time with the verdict of the whole reading, and finds a row removed across a page', async () => {
    const db = await freshDatabase();
    const store = openPgAuditLog(db, { pageRows: 3 });
    await store.appendMany(Array.from({ length: 10 }, (_, i) => auditEntry(`u${i}`, 'done')));
    const whole = await openPgAuditLog(db).verify();
    expect(whole).toMatchObject({ ok: true, entries: 10 });
    expect(await store.verify()).toEqual(whole);
    // A head hash written down after entry 5: entry 6, on the next page, links to it.
    const afterFive = (await store.read()).entries[5]?.prevHash as string;
    expect(await store.verify(afterFive)).toMatchObject({ ok: true, entries: 10 });
    // Entries taken off the end: the chain alone still holds, its head row does not.
    await asSuperuser(db, 'DELETE FROM audit_entries WHERE seq > 8');
    const cut = await store.verify();
    expect(cut).toMatchObject({ ok: false, kind: 'removed', line: 9, entries: 8, message: 'The team trail ends at entry 8, but its chain head records entry 10: entries were taken off its end, or written around the chain’s lock.' });
    expect((await store.read()).verdict).toEqual(cut);
    await asSuperuser(db, 'DELETE FROM audit_entries WHERE seq = 4');
    const verdict = await store.verify();
    expect(verdict).toMatchObject({ ok: false, kind: 'removed', entries: 3, message: expect.stringMatching(/Entry 4 is missing/) });
    expect(await openPgAuditLog(db).verify()).toEqual(verdict);
    expect((await store.read()).verdict).toEqual(verdict);
  });

  it('verifies a trail of 100,000 entries without holding it whole', { timeout: 180_000 }, async () => {
    const db = await freshDatabase();
    const store = openPgAuditLog(db);
    for (let batch = 0; batch < 20; batch++) await store.appendMany(Array.from({ length: 5_000 }, (_, i) => auditEntry(`u${batch}-${i}`, 'done')));
    expect(await store.verify()).toMatchObject({ ok: true, entries: 100_000 });
    expect((await store.list(3)).map((e) => e.seq)).toEqual([100_000, 99_999, 99_998]);
  });

  describe('team import of a local trail', () => {
    const localTrail = async (build: (log: ReturnType<typeof openAuditLog>) => Promise<void>) => {
      const dir = mkdtempSync(join(tmpdir(), 'team-import-'));
      dirs.push(dir);
      const log = openAuditLog(dir);
      await build(log);
      return { text: readFileSync(log.path, 'utf8'), path: log.path, log };
    };

    it('joins the local chain after the team’s entries, its head hash in the first imported entry, and verify re-hashes the join', async () => {
      const db = await freshDatabase();
      const team = openPgAuditLog(db);
      await team.append(auditEntry('from-another-desktop', 'done'));
      // A trail begun before the chain existed: two legacy lines (and a blank one) the chain's first entry vouches for.
      const legacy = [JSON.stringify(auditEntry('old-1', 'succeeded' as never)), '', JSON.stringify(auditEntry('old-2', 'failed' as never))].join('\n');
      const local = await localTrail(async (log) => {
        writeFileSync(log.path, `${legacy}\n`);
        await log.append(auditEntry('local-1', 'attempted'));
        await log.append(auditEntry('local-1', 'done', { reference: 'REQ-7' }));
      });
      // A crash left a torn line at its end: the local log sets it aside, as it always does, before the import reads it.
      appendFileSync(local.path, '{"at":"2026-');
      const result = await importLocalAuditLog(db, local.log);
      const localVerdict = await local.log.verify();
      expect(localVerdict).toMatchObject({ ok: true, entries: 2, legacy: 2 });
      if (!localVerdict.ok) return;
      expect(result).toEqual({ imported: 4, firstSeq: 2, localHeadHash: localVerdict.headHash });
      const reading = await team.read();
      expect(reading.entries.map((e) => e.uid)).toEqual(['from-another-desktop', 'old-1', 'old-2', 'local-1', 'local-1']);
      expect(reading.entries[1]).toMatchObject({ importedFrom: { chainId: localVerdict.chainId, headHash: localVerdict.headHash, entries: 2, lines: 4 }, desktop: db.desktop, dbRole: 'desk' });
      expect(reading.entries[4]).toMatchObject({ reference: 'REQ-7', outcome: 'done', imported: { text: local.text.trimEnd().split('\n').at(-1) } });
      expect(await team.verify()).toMatchObject({ ok: true, entries: 5 });
      expect(reading.verdict).toMatchObject({ ok: true, entries: 5 });

      await expect(importLocalTrail(db, local.text)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/already in the team database .* from entry 2\. Nothing was imported again/) });
      expect((await team.verify()).entries).toBe(5);
    });

    it('finds an imported entry that differs from the local line it carries, and imported lines that no longer hash to the recorded head', async () => {
      const db = await freshDatabase();
      const team = openPgAuditLog(db);
      const local = await localTrail(async (log) => {
        for (const uid of ['a', 'b', 'c']) await log.append(auditEntry(uid, 'done'));
      });
      await importLocalTrail(db, local.text);
      expect(await team.verify()).toMatchObject({ ok: true, entries: 3 });
      const { rows } = await db.pool.query<{ line: string }>('SELECT line FROM audit_entries WHERE seq = 2');
      const row = JSON.parse(rows[0]?.line ?? '{}') as Record<string, unknown> & { imported: { text: string } };

      // The local line edited inside the entry, the team chain re-linked after it by a superuser: only the join can tell.
      await rechain(db, 2, { ...row, imported: { text: row.imported.text.replace('"uid":"b"', '"uid":"z"') } });
      expect(await team.verify()).toMatchObject({ ok: false, kind: 'edited', line: 1, message: expect.stringMatching(/^Entry 1 begins 3 lines imported from a local trail whose head hash was [0-9a-f]{64}, but entry 2 differs from the local line it carries \(uid\)/) });

      const db2 = await freshDatabase();
      await importLocalTrail(db2, local.text);
      const { rows: rows2 } = await db2.pool.query<{ line: string }>('SELECT line FROM audit_entries WHERE seq = 3');
      const third = JSON.parse(rows2[0]?.line ?? '{}') as Record<string, unknown> & { imported: { text: string } };
      await rechain(db2, 3, { ...third, uid: 'z', imported: { text: third.imported.text.replace('"uid":"c"', '"uid":"z"') } });
      expect(await openPgAuditLog(db2).verify()).toMatchObject({ ok: false, kind: 'edited', line: 1, message: expect.stringMatching(/but those lines hash to another head \([0-9a-f]{64}\)\.$/) });
    });

    it('refuses a local trail that is not intact, writing nothing', async () => {
      const db = await freshDatabase();
      const local = await localTrail(async (log) => {
        for (const uid of ['a', 'b']) await log.append(auditEntry(uid, 'done'));
      });
      const edited = local.text.replace('"uid":"a"', '"uid":"x"');
      await expect(importLocalTrail(db, edited)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/^The local audit trail was not imported, because it is not intact\. Line 1 was edited after it was written/) });
      expect(await openPgAuditLog(db).verify()).toMatchObject({ ok: true, entries: 0 });
    });
  });

  /** A superuser's forgery: row `seq` replaced by `stored` (its chain fields kept) and every later row re-linked, the head moved. */
  async function rechain(db: TeamDatabase, seq: number, stored: Record<string, unknown>): Promise<void> {
    const { rows } = await db.pool.query<{ seq: string; line: string }>('SELECT seq, line FROM audit_entries WHERE seq >= $1 ORDER BY seq', [seq]);
    let previous = stored;
    const lines = [JSON.stringify(stored)];
    for (const row of rows.slice(1)) {
      const next = { ...(JSON.parse(row.line) as Record<string, unknown>), prevHash: entryHash(previous) };
      lines.push(JSON.stringify(next));
      previous = next;
    }
    await db.transaction(async (client) => {
      await client.query('ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only');
      for (const [index, line] of lines.entries()) await client.query('UPDATE audit_entries SET line = $2, hash = $3 WHERE seq = $1', [seq + index, line, entryHash(JSON.parse(line) as object)]);
      await client.query('UPDATE audit_head SET hash = $1', [entryHash(previous)]);
      await client.query('ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only');
    });
  }
});
