import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore, type CredentialStore } from '../credential-store';
import { openAuditLog } from '../audit-log';
import { openLocalRequestStore } from './local-request-store';
import { REGISTER_FILE_NAME } from './register-file';
import type { RequestStore } from './request-store';

const PARIS = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true, purgeAfterYears: 3 };

describe('local request store', () => {
  let dir: string;
  let keys: CredentialStore;
  let clock: number;
  const open = (keyStore: CredentialStore = keys): RequestStore =>
    openLocalRequestStore({ dataDir: dir, audit: openAuditLog(dir), keyStore: async () => keyStore, operator: 'dpo', via: 'cli', appVersion: 'test', now: () => clock });
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'requests-'));
    keys = createSessionCredentialStore();
    clock = Date.parse('2026-03-05T10:00:00+01:00');
    await open().saveSettings(PARIS);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const register = () => readFileSync(join(dir, REGISTER_FILE_NAME), 'utf8');
  const audit = () => readFileSync(join(dir, 'audit.jsonl'), 'utf8');

  it('numbers requests per year of receipt, computes the deadline and keeps every change with who and when', async () => {
    const store = open();
    const first = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['anonymize'], subjects: [{ uid: 'alice' }] });
    const second = await store.create({ receivedAt: '2026-03-04T09:00:00+01:00', actions: ['delete', 'logout'], subjects: [{ uid: 'bob', profileId: 'p1' }] });
    const old = await store.create({ receivedAt: '2025-12-31T23:30:00Z', actions: ['delete'], subjects: [{ uid: 'carol' }] });
    expect([first.id, second.id, old.id]).toEqual(['REQ-2026-0001', 'REQ-2026-0002', 'REQ-2026-0003']); // 1 January in Paris
    expect(first).toMatchObject({ status: 'received', channel: 'e-mail', requester: { state: 'none' }, clock: { deadline: '2026-04-03', state: 'open', daysLeft: 29 } });
    const paused = await store.apply(first.id, { kind: 'pause', at: '2026-03-05T09:00:00+01:00' });
    expect(paused).toMatchObject({ status: 'waiting-for-identity', clock: { state: 'paused' } });
    clock = Date.parse('2026-03-10T10:00:00+01:00');
    const resumed = await store.apply(first.id, { kind: 'resume' });
    expect(resumed.status).toBe('in-progress');
    expect(resumed.clock.pausedDays).toBe(5);
    const linked = await store.apply(first.id, { kind: 'link', actIds: ['act-1'], batchJobIds: ['job-1'] });
    expect(linked.links).toEqual({ actIds: ['act-1'], batchJobIds: ['job-1'] });
    const closed = await store.apply(first.id, { kind: 'close' });
    expect(closed).toMatchObject({ status: 'answered', clock: { state: 'closed' }, purgeOn: '2029-03-10' });
    expect(closed.history.map((h) => `${h.event}:${h.change}:${h.by}`)).toEqual(['1:create:dpo', '4:pause:dpo', '5:resume:dpo', '6:link:dpo', '7:close:dpo']);
    await expect(store.apply(first.id, { kind: 'pause' })).rejects.toThrow(/is closed \(answered\)/);
    expect((await store.list({ status: 'open' })).map((r) => r.id)).toEqual(['REQ-2026-0003', 'REQ-2026-0002']); // soonest deadline first
    expect((await store.list({ text: 'BOB' })).map((r) => r.id)).toEqual(['REQ-2026-0002']);
    expect((await store.check()).ok).toBe(true);
  });

  it('a request received late on 31 December UTC belongs to the year of the register’s time zone', async () => {
    const store = open();
    expect((await store.create({ receivedAt: '2025-12-31T23:30:00Z', actions: ['delete'], subjects: [{ uid: 'carol' }] })).id).toBe('REQ-2026-0001');
    expect((await store.create({ receivedAt: '2025-12-31T20:00:00Z', actions: ['delete'], subjects: [{ uid: 'dan' }] })).id).toBe('REQ-2025-0001');
  });

  it('refuses an extension decided after the first period with the reason, and accepts one in time', async () => {
    const store = open();
    const request = await store.create({ receivedAt: '2026-01-31T10:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'eve' }] });
    expect(request.clock.firstDeadline).toBe('2026-03-02'); // 28 February is a Saturday
    await expect(store.apply(request.id, { kind: 'extend', reason: 'Many accounts', personToldAt: '2026-03-03T09:00:00+01:00', decidedAt: '2026-03-03T09:00:00+01:00' })).rejects.toThrow(
      /ended on 2026-03-02, and 2026-03-03 is after it/,
    );
    const extended = await store.apply(request.id, { kind: 'extend', reason: 'Many accounts', personToldAt: '2026-02-20T09:00:00+01:00', decidedAt: '2026-02-20T09:00:00+01:00' });
    expect(extended.extension?.reason).toBe('Many accounts');
    expect(extended.clock.extendedDeadline).toBe(extended.clock.deadline);
    expect(extended.clock.deadline > '2026-04-27').toBe(true);
    await expect(store.apply(request.id, { kind: 'extend', reason: 'again', personToldAt: '2026-02-21T09:00:00+01:00' })).rejects.toThrow(/already extended/);
  });

  it('refuses bad input before writing anything', async () => {
    const store = open();
    await expect(store.create({ receivedAt: '2026-03-03', actions: ['delete'], subjects: [{ uid: 'a' }] })).rejects.toThrow(/receivedAt/);
    await expect(store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: [], subjects: [{ uid: 'a' }] })).rejects.toThrow(/actions/);
    await expect(store.get('REQ-2026-0042')).rejects.toThrow(/no request REQ-2026-0042/);
    expect(register()).toBe('');
  });

  it('encrypts the requester at rest: no plaintext in the register, the keys or the audit trail; shown only when asked', async () => {
    const store = open();
    const created = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }], requester: { name: 'Marie Secrète', contact: 'marie.secrete@example.org' } });
    expect(created.requester).toEqual({ state: 'hidden' });
    const files = register() + audit() + readFileSync(join(dir, 'requests-keys.json'), 'utf8');
    expect(files).not.toMatch(/Secrète|Secr|marie\.secrete|example\.org/);
    expect((await store.get(created.id, { withContact: true })).requester).toEqual({ state: 'shown', name: 'Marie Secrète', contact: 'marie.secrete@example.org' });
    expect((await store.list({ text: 'secrète' })).map((r) => [r.id, r.requester.state])).toEqual([[created.id, 'hidden']]);
    const csv = (await store.export('csv')).content;
    expect(csv).not.toContain('Marie');
    expect((await store.export('csv', { withContact: true })).content).toContain('marie.secrete@example.org');
    // Another keychain (or a session that ended) cannot read it, and says so.
    expect((await open(createSessionCredentialStore()).get(created.id, { withContact: true })).requester.state).toBe('unreadable');
  });

  it('a value moved to another request does not decrypt (the request id is the associated data)', async () => {
    const store = open();
    const a = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }], requester: { name: 'Anne' } });
    await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u2' }], requester: { name: 'Bernard' } });
    const lines = register().trimEnd().split('\n').map((line) => JSON.parse(line));
    lines[1].change.requester = lines[0].change.requester;
    writeFileSync(join(dir, REGISTER_FILE_NAME), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    expect((await store.get('REQ-2026-0002', { withContact: true })).requester.state).toBe('unreadable');
    expect((await store.get(a.id, { withContact: true })).requester.name).toBe('Anne');
  });

  it('purges the requester once the purge day has come, leaving an anonymous record', async () => {
    const store = open();
    const request = await store.create({ receivedAt: '2026-03-03T09:00:00+01:00', actions: ['delete'], subjects: [{ uid: 'u1' }], requester: { name: 'Anne', contact: 'anne@example.org' } });
    await expect(store.apply(request.id, { kind: 'purge' })).rejects.toThrow(/still open/);
    await store.apply(request.id, { kind: 'close' });
    expect(await store.purgeDue()).toEqual([]);
    clock = Date.parse('2029-03-05T12:00:00+01:00');
    expect(await store.purgeDue()).toEqual([request.id]);
    const purged = await store.get(request.id, { withContact: true });
    expect(purged).toMatchObject({ status: 'answered', requester: { state: 'purged' }, subjects: [{ uid: 'u1' }] });
    expect(purged.purgedAt).toBeDefined();
    expect(readFileSync(join(dir, 'requests-keys.json'), 'utf8')).not.toContain(request.id);
    expect((await store.check()).ok).toBe(true);
  });
});
