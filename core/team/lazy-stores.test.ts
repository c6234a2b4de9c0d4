import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { AuditStore } from '../audit-store';
import { lazyAsyncMethods, lazyAuditStore, onFirstUse } from './lazy-stores';

describe('team stores opened on first use', () => {
  it('a failed opening fails that call only: the next call tries again', async () => {
    let attempts = 0;
    const opened = onFirstUse(async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('away');
      return { value: 42 };
    });
    expect(opened.now()).toBeUndefined();
    await expect(opened.get()).rejects.toThrow('away');
    expect(await opened.get()).toEqual({ value: 42 });
    expect(await opened.get()).toBe(opened.now());
    expect(attempts).toBe(2);
  });

  it('a write to a trail that cannot be opened is not sent, in the team trail’s words; until open nothing is pending and the feed is quiet', async () => {
    const unreachable = new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('team.unreachable', { where: 'postgres://d@h:1/x', why: 'ECONNREFUSED' }) }, { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const audit = lazyAuditStore('postgres://d@h:1/x', () => Promise.reject(unreachable), () => undefined);
    const refused = await audit.append({ at: '2026-11-24T22:00:00Z', action: 'delete', outcome: 'attempted' } as never).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
    expect(String((refused as Error).message)).toMatch(/team database could not be reached \(ECONNREFUSED\)/);
    const noPassword = lazyAuditStore('postgres://d@h:1/x', () => Promise.reject(new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('teamMode.noPassword', { where: 'postgres://d@h:1/x' }) })), () => undefined);
    expect(String(await noPassword.append({} as never).catch((error: unknown) => error))).toMatch(/neither in the OS keychain nor in PRIVACY_DESK_DATABASE_PASSWORD/);
    expect(audit.pendingCount).toBe(0);
    expect(await audit.flushPending()).toBe(0);
    expect(await audit.feed().next()).toEqual({ lines: [], lostTrack: false });
  });

  it('the register’s calls wait for the real store and reach it with their arguments', async () => {
    const seen: unknown[] = [];
    const store = lazyAsyncMethods<Pick<AuditStore, 'list'>>(async () => ({ list: async (limit?: number) => (seen.push(limit), []) }));
    expect(await store.list(7)).toEqual([]);
    expect(seen).toEqual([7]);
  });
});
