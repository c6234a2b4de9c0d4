import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../credential-store';
import { pgSkipReason, startPgCluster, type PgCluster } from '../../tests/support/pg-cluster';
import { localRegister, teamRegister, type RegisterKind, type RegisterUnderTest } from '../../tests/support/register-under-test';
import type { RequestStore } from './request-store';

/**
 * The request store's one suite, run against both implementations: the data folder's register and the team
 * database's. What a DPO sees must not depend on where the register is kept.
 */
const PARIS = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true, purgeAfterYears: 3 };
const skip = pgSkipReason();
let cluster: PgCluster | undefined;

beforeAll(async () => {
  if (skip === null) cluster = await startPgCluster({ fsync: false });
}, 60_000);
afterAll(async () => cluster?.destroy());

const kinds: Array<{ kind: RegisterKind; skipped: boolean }> = [
  { kind: localRegister, skipped: false },
  { kind: teamRegister(() => cluster as PgCluster), skipped: skip !== null },
];

describe.each(kinds)('the request register in $kind.name', ({ kind, skipped }) => {
  let register: RegisterUnderTest;
  let clock: number;
  let store: RequestStore;
  beforeEach(async (context) => {
    if (skipped) return context.skip();
    clock = Date.parse('2026-03-05T10:00:00+01:00');
    register = await kind.make(() => clock);
    store = register.open();
    await store.saveSettings(PARIS);
  });
  afterEach(async () => register?.close());

  it('numbers requests per year of receipt, lists them soonest deadline first, and keeps every change with who and when', async () => {
    const first = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['anonymize'], subjects: [{ uid: 'alice' }] });
    const second = await store.create({ receivedAt: '2026-03-04T09:00:00+01:00', actions: ['delete', 'logout'], subjects: [{ uid: 'bob', profileId: 'p1' }] });
    const old = await store.create({ receivedAt: '2025-12-31T23:30:00Z', actions: ['delete'], subjects: [{ uid: 'carol' }] });
    const late = await store.create({ receivedAt: '2025-12-31T20:00:00Z', actions: ['delete'], subjects: [{ uid: 'dan' }] });
    expect([first.id, second.id, old.id, late.id]).toEqual(['REQ-2026-0001', 'REQ-2026-0002', 'REQ-2026-0003', 'REQ-2025-0001']); // 1 January in Paris, or not yet
    expect(first).toMatchObject({ status: 'received', channel: 'e-mail', requester: { state: 'none' }, clock: { deadline: '2026-04-03', state: 'open', daysLeft: 29 } });
    expect((await store.apply(first.id, { kind: 'pause', at: '2026-03-05T09:00:00+01:00' })).clock.state).toBe('paused');
    clock = Date.parse('2026-03-10T10:00:00+01:00');
    expect((await store.apply(first.id, { kind: 'resume' })).clock.pausedDays).toBe(5);
    expect((await store.apply(first.id, { kind: 'update', fields: { notes: 'Called back' } })).notes).toBe('Called back');
    expect((await store.apply(first.id, { kind: 'link', actIds: ['act-1'], batchJobIds: ['job-1'] })).links).toEqual({ actIds: ['act-1'], batchJobIds: ['job-1'] });
    const closed = await store.apply(first.id, { kind: 'close' });
    expect(closed).toMatchObject({ status: 'answered', clock: { state: 'closed' }, purgeOn: '2029-03-10' });
    expect(closed.history.map((h) => `${h.event}:${h.change}:${h.by}`)).toEqual(['1:create:dpo', '5:pause:dpo', '6:resume:dpo', '7:update:dpo', '8:link:dpo', '9:close:dpo']);
    expect((await store.apply(second.id, { kind: 'refuse', ground: 'Manifestly unfounded' })).status).toBe('refused');
    expect((await store.list()).map((r) => r.id)).toEqual(['REQ-2025-0001', 'REQ-2026-0003', 'REQ-2026-0001', 'REQ-2026-0002']);
    expect((await store.list({ status: 'open' })).map((r) => r.id)).toEqual(['REQ-2025-0001', 'REQ-2026-0003']);
    expect((await store.list({ text: 'CAROL' })).map((r) => r.id)).toEqual(['REQ-2026-0003']);
    expect(await register.events()).toHaveLength(10);
    expect(await store.check()).toEqual({ ok: true, events: 10 });
  });

  it('refuses what does not apply, with the reason, and writes nothing for it', async () => {
    await expect(store.create({ receivedAt: '2026-03-03', actions: ['delete'], subjects: [{ uid: 'a' }] })).rejects.toThrow(/receivedAt/);
    await expect(store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: [], subjects: [{ uid: 'a' }] })).rejects.toThrow(/actions/);
    await expect(store.get('REQ-2026-0042')).rejects.toThrow(/no request REQ-2026-0042/);
    expect(await register.events()).toEqual([]);
    const request = await store.create({ receivedAt: '2026-01-31T10:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'eve' }] });
    await expect(store.apply(request.id, { kind: 'extend', reason: 'Many accounts', personToldAt: '2026-03-03T09:00:00+01:00', decidedAt: '2026-03-03T09:00:00+01:00' })).rejects.toThrow(/ended on 2026-03-02, and 2026-03-03 is after it/);
    await expect(store.apply(request.id, { kind: 'resume' })).rejects.toThrow(/is not waiting for the requester’s identity/);
    await expect(store.apply(request.id, { kind: 'purge' })).rejects.toThrow(/still open/);
    await store.apply(request.id, { kind: 'close' });
    await expect(store.apply(request.id, { kind: 'pause' })).rejects.toThrow(/is closed \(answered\)/);
    await expect(store.saveSettings({ timeZone: 'Mars/Olympus' })).rejects.toThrow(/Mars\/Olympus is not a time zone/);
    expect((await store.settings()).timeZone).toBe('Europe/Paris');
    expect(await register.events()).toHaveLength(2);
    expect((await store.check()).ok).toBe(true);
  });

  it('keeps the requester encrypted at rest, shows it only when asked, exports it only when asked', async () => {
    const created = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }], requester: { name: 'Marie Secrète', contact: 'marie.secrete@example.org' } });
    expect(created.requester).toEqual({ state: 'hidden' });
    expect(await register.atRest()).not.toMatch(/Secrète|Secr|marie\.secrete|example\.org/);
    expect((await store.get(created.id, { withContact: true })).requester).toEqual({ state: 'shown', name: 'Marie Secrète', contact: 'marie.secrete@example.org' });
    expect((await store.list({ text: 'secrète' })).map((r) => [r.id, r.requester.state])).toEqual([[created.id, 'hidden']]);
    const csv = await store.export('csv');
    expect(csv).toMatchObject({ count: 1, mimeType: 'text/csv;charset=utf-8' });
    expect(csv.content).toMatch(/^id,receivedAt,channel/);
    expect(csv.content).not.toContain('Marie');
    expect((await store.export('csv', { withContact: true })).content).toContain('marie.secrete@example.org');
    const json = JSON.parse((await store.export('json', { filter: { status: 'open' } })).content);
    expect(json.requests.map((r: { id: string }) => r.id)).toEqual([created.id]);
    // Another computer: the team's desktops all read it; another keychain than the data folder's does not.
    const elsewhere = register.open({ keyStore: createSessionCredentialStore(), operator: 'agent' });
    expect((await elsewhere.get(created.id, { withContact: true })).requester.state).toBe(register.keysShared ? 'shown' : 'unreadable');
  });

  it('purges the requester once the purge day has come, leaving an anonymous record the trail still vouches for', async () => {
    const request = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }], requester: { name: 'Anne', contact: 'anne@example.org' } });
    await store.apply(request.id, { kind: 'close' });
    expect(await register.dataKeys()).toEqual([request.id]);
    expect(await store.purgeDue()).toEqual([]);
    clock = Date.parse('2029-03-05T12:00:00+01:00');
    expect(await store.purgeDue()).toEqual([request.id]);
    const purged = await store.get(request.id, { withContact: true });
    expect(purged).toMatchObject({ status: 'answered', requester: { state: 'purged' }, subjects: [{ uid: 'u1' }] });
    expect(purged.purgedAt).toBeDefined();
    expect(await register.dataKeys()).toEqual([]);
    expect((await register.atRest()).split(request.id).length).toBeGreaterThan(1); // the record stays
    expect(await store.purgeDue()).toEqual([]);
    expect(await store.check()).toEqual({ ok: true, events: 3 });
  });

  describe('checked against the audit trail', () => {
    beforeEach(async () => {
      const request = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }] });
      await store.apply(request.id, { kind: 'pause' });
      await store.apply(request.id, { kind: 'resume' });
      expect(await store.check()).toEqual({ ok: true, events: 3 });
    });

    it('an edited event', async () => {
      await register.rewriteEvents((texts) => texts.map((text, i) => (i === 1 ? text.replace('"by":"dpo"', '"by":"someone"') : text)));
      expect(await store.check()).toMatchObject({ ok: false, kind: 'edited', line: 2 });
    });

    it('a removed event', async () => {
      await register.rewriteEvents((texts) => [texts[0] as string, texts[2] as string]);
      expect(await store.check()).toMatchObject({ ok: false, kind: 'removed', message: expect.stringMatching(/Event 2 of the request register \(pause of REQ-2026-0001/) });
    });

    it('reordered events', async () => {
      await register.rewriteEvents(([a, b, c]) => [a as string, c as string, b as string]);
      expect(await store.check()).toMatchObject({ ok: false, kind: 'reordered', line: 2 });
    });

    it('an event added by hand', async () => {
      await register.rewriteEvents((texts) => [...texts, JSON.stringify({ ...JSON.parse(texts[2] as string), event: 4 })]);
      expect(await store.check()).toMatchObject({ ok: false, kind: 'unaudited', line: 4 });
    });

    it('a check given the trail just read says the same', async () => {
      await register.rewriteEvents((texts) => texts.map((text, i) => (i === 0 ? text.replace('"uid":"u1"', '"uid":"u2"') : text)));
      expect(await store.check([])).toMatchObject({ ok: false, kind: 'edited', line: 1 });
    });
  });
});
