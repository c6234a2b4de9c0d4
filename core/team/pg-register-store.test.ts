import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { openAuditLog } from '../audit-log';
import { createSessionCredentialStore } from '../credential-store';
import { openLocalRequestStore } from '../requests/local-request-store';
import { openPgAuditLog } from './pg-audit-log';
import { importLocalTrail } from './pg-audit-import';
import { createPgAuditQuery } from './pg-audit-query';
import { REGISTER_LOCK } from './pg-register-events';
import { requestEntriesOf } from './pg-register-trail';
import { checkRegisterImportable, importLocalRegister } from './pg-register-import';
import { openPgRequestStore } from './pg-register-store';
import { openTeamDatabase, type TeamDatabase } from './team-database';
import { parseTeamDatabaseUrl } from './team-url';

/** What only the team register has: several desktops on one register, the database's own guards, the server gone, the import. */
const skip = pgSkipReason();
const PARIS = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true, purgeAfterYears: 3 };
const clock = () => Date.parse('2026-03-05T10:00:00+01:00');

describe.skipIf(skip !== null)('the team request register on a real PostgreSQL server', () => {
  let cluster: PgCluster;
  let databases = 0;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  /** A fresh database, and a way to open it as one more desktop would (its own pool). */
  const team = async () => {
    const address = parseTeamDatabaseUrl(await cluster.createDatabase(`team_register_${++databases}`));
    const opened: TeamDatabase[] = [];
    const desktop = async (operator: string) => {
      const db = await openTeamDatabase(address, { password: cluster.password, connectTimeoutMs: 2_000 });
      opened.push(db);
      const audit = openPgAuditLog(db);
      return { db, audit, store: openPgRequestStore({ db, audit, operator, via: 'app', appVersion: 'test', now: clock }) };
    };
    return { desktop, close: () => Promise.all(opened.map((db) => db.close().catch(() => undefined))) };
  };
  const newRequest = (uid: string) => ({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete' as const], subjects: [{ uid }] });

  it('two desktops creating requests at once get distinct ids without gaps, and every event names who wrote it from where', async () => {
    const { desktop, close } = await team();
    try {
      const [a, b] = await Promise.all([desktop('dpo'), desktop('agent')]);
      await a.store.saveSettings(PARIS);
      const created = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b).store.create(newRequest(`u${i}`))));
      expect(created.map((view) => view.id).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `REQ-2026-${String(i + 1).padStart(4, '0')}`));
      const rows = (await a.db.pool.query('SELECT number, operator, desktop, db_role FROM register_events ORDER BY number')).rows;
      expect(rows.map((row) => Number(row.number))).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(new Set(rows.map((row) => row.operator))).toEqual(new Set(['dpo', 'agent']));
      expect(rows.every((row) => row.db_role === 'desk' && row.desktop === a.db.desktop)).toBe(true);
      // One view for both, and the team's trail vouches for every event.
      expect((await b.store.list()).map((view) => view.id)).toEqual((await a.store.list()).map((view) => view.id));
      expect(await b.store.check()).toEqual({ ok: true, events: 12 });
      expect((await a.audit.verify()).ok).toBe(true);
      // check() reads the trail's 'request' entries a page at a time from the database: the same as the whole trail holds.
      const whole = (await a.audit.read()).entries.filter((entry) => entry.action === 'request');
      expect((await requestEntriesOf(createPgAuditQuery(a.db), 5)).map((entry) => [entry.line, entry.register?.sha256])).toEqual(whole.map((entry) => [entry.line, entry.register?.sha256]));
    } finally {
      await close();
    }
  });

  it('the database itself refuses an event out of turn, and any change or removal of one', async () => {
    const { desktop, close } = await team();
    try {
      const { db, store } = await desktop('dpo');
      await store.create(newRequest('u1'));
      const insert = (number: number) => db.pool.query("INSERT INTO register_events (number, line, sha256, request_id, change, operator, desktop) VALUES ($1, '{}', repeat('0', 64), '', '', 'x', 'x')", [number]);
      await expect(insert(3)).rejects.toThrow(/numbered without gaps: event 3 refused/);
      await expect(insert(1)).rejects.toThrow(/numbered without gaps|duplicate key/);
      await expect(db.pool.query("UPDATE register_events SET operator = 'someone'")).rejects.toThrow(/append-only/);
      await expect(db.pool.query('DELETE FROM register_events')).rejects.toThrow(/append-only/);
      expect(await store.check()).toEqual({ ok: true, events: 1 });
    } finally {
      await close();
    }
  });

  it('with the server stopped, a change is refused as not sent and nothing is written; once it is back, numbering goes on', async () => {
    const { desktop, close } = await team();
    try {
      const { store } = await desktop('dpo');
      await store.saveSettings(PARIS);
      const first = await store.create(newRequest('u1'));
      await cluster.stopServer();
      try {
        const refused = await store.apply(first.id, { kind: 'pause' }).catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
        expect(String((refused as Error).message)).toMatch(/could not be reached .*Nothing was sent/);
        await expect(store.list()).rejects.toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE' });
      } finally {
        await cluster.startServer();
      }
      expect((await store.get(first.id)).history.map((entry) => entry.change)).toEqual(['create']);
      expect((await store.create(newRequest('u2'))).id).toBe('REQ-2026-0002');
      expect(await store.check()).toEqual({ ok: true, events: 2 });
    } finally {
      await close();
    }
  });

  it('imports a data folder’s register as it is: same ids and events, the requester readable by the team, each event vouched for in the team chain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'register-import-'));
    const { desktop, close } = await team();
    try {
      const keys = createSessionCredentialStore();
      const local = openLocalRequestStore({ dataDir: dir, audit: openAuditLog(dir), keyStore: async () => keys, operator: 'dpo', via: 'cli', appVersion: 'test', now: clock });
      await local.saveSettings(PARIS);
      const kept = await local.create({ ...newRequest('u1'), requester: { name: 'Anne Martin', contact: 'anne@example.org' } });
      await local.apply(kept.id, { kind: 'pause' });
      await local.create(newRequest('u2'));
      const { db, audit, store } = await desktop('dpo');
      const imported = await importLocalRegister({ dataDir: dir, keyStore: async () => keys, db, audit, operator: 'dpo', via: 'cli', appVersion: 'test', now: clock });
      expect(imported).toEqual({ events: 3, requests: 2, keysMoved: 1, keysUnreadable: 0, settingsCopied: true, auditEntries: 3 });
      expect((await store.list()).map((view) => [view.id, view.status])).toEqual((await local.list()).map((view) => [view.id, view.status]));
      expect((await store.get(kept.id, { withContact: true })).requester).toEqual({ state: 'shown', name: 'Anne Martin', contact: 'anne@example.org' });
      expect(await store.settings()).toEqual(PARIS);
      expect(await store.check()).toEqual({ ok: true, events: 3 });
      expect((await store.create(newRequest('u3'))).id).toBe('REQ-2026-0003');
      expect(await store.check()).toEqual({ ok: true, events: 4 });
      // A second import would add the same requests again: refused, nothing written.
      await expect(importLocalRegister({ dataDir: dir, keyStore: async () => keys, db, audit, operator: 'dpo', via: 'cli', appVersion: 'test' })).rejects.toThrow(/already holds a request register \(4 events\)/);
      expect(await store.check()).toEqual({ ok: true, events: 4 });
      // Asked before the folder's trail is imported, so a trail never lands without its register: refused the same way.
      await expect(checkRegisterImportable(db, dir)).rejects.toThrow(/already holds a request register/);
      // A folder without a register has nothing to import, and is never refused for it.
      const empty = mkdtempSync(join(tmpdir(), 'register-import-empty-'));
      await expect(checkRegisterImportable(db, empty)).resolves.toBeUndefined();
      expect(await importLocalRegister({ dataDir: empty, keyStore: async () => keys, db, audit, operator: 'dpo', via: 'cli', appVersion: 'test' })).toMatchObject({ events: 0, auditEntries: 0 });
      rmSync(empty, { recursive: true, force: true });
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after the folder’s trail was imported, its entries already vouch for the imported events: none is written twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'register-import-'));
    const { desktop, close } = await team();
    try {
      const keys = createSessionCredentialStore();
      const local = openLocalRequestStore({ dataDir: dir, audit: openAuditLog(dir), keyStore: async () => keys, operator: 'dpo', via: 'cli', appVersion: 'test', now: clock });
      const request = await local.create(newRequest('u1'));
      await local.apply(request.id, { kind: 'close' });
      const { db, audit, store } = await desktop('dpo');
      expect((await importLocalTrail(db, readFileSync(join(dir, 'audit.jsonl'), 'utf8'))).imported).toBe(2);
      const imported = await importLocalRegister({ dataDir: dir, keyStore: async () => keys, db, audit, operator: 'dpo', via: 'cli', appVersion: 'test', now: clock });
      expect(imported).toMatchObject({ events: 2, auditEntries: 0 });
      expect(await store.check()).toEqual({ ok: true, events: 2 });
      expect((await audit.verify()).ok).toBe(true);
    } finally {
      await close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a desktop that vanished while holding the register’s lock does not block the team: the server lets go of it with its session', async () => {
    const { desktop, close } = await team();
    try {
      const vanishing = await desktop('agent');
      const holder = await vanishing.db.pool.connect();
      holder.on('error', () => undefined); // its session is cut below, on purpose
      await holder.query('SELECT pg_advisory_lock($1)', [REGISTER_LOCK]);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      const { db, store } = await desktop('dpo');
      const creating = store.create(newRequest('u1'));
      // The change waits for the lock (seen by the server), then the holder's session is cut as a crash would cut it.
      const waiting = async () => Number((await db.pool.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0]?.n);
      while ((await waiting()) === 0) await new Promise((resolve) => setImmediate(resolve));
      await db.pool.query('SELECT pg_terminate_backend($1)', [holderPid]);
      holder.release(true);
      expect((await creating).id).toBe('REQ-2026-0001');
      expect(await store.check()).toEqual({ ok: true, events: 1 });
    } finally {
      await close();
    }
  });

  it('a change under way when the server stops is refused as not sent, leaves no event, and the register goes on once the server is back', async () => {
    const { desktop, close } = await team();
    try {
      const other = await desktop('agent');
      const { db, store } = await desktop('dpo');
      await store.saveSettings(PARIS);
      await store.create(newRequest('u1'));
      // Another desktop holds the lock, so this change is under way (waiting for it) when the server stops.
      const holder = await other.db.pool.connect();
      holder.on('error', () => undefined); // its session ends with the server, on purpose
      await holder.query('SELECT pg_advisory_lock($1)', [REGISTER_LOCK]);
      const changing = store.apply('REQ-2026-0001', { kind: 'pause' }).catch((error: unknown) => error);
      const waiting = async () => Number((await db.pool.query("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")).rows[0]?.n);
      while ((await waiting()) === 0) await new Promise((resolve) => setImmediate(resolve));
      await cluster.stopServer();
      try {
        expect(await changing).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
      } finally {
        holder.release(true);
        await cluster.startServer();
      }
      expect((await store.get('REQ-2026-0001')).history.map((entry) => entry.change)).toEqual(['create']);
      expect((await store.apply('REQ-2026-0001', { kind: 'pause' })).status).toBe('waiting-for-identity');
      expect(await store.check()).toEqual({ ok: true, events: 2 });
    } finally {
      await close();
    }
  });
});
