import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../shared/errors';
import type { AuditEntry } from '../shared/audit';
import type { AuditLog } from './audit-log';
import { performErasure, performLogout } from './erasure';
import type { ServiceClient } from './types';

const profile = { id: 'prod-1a2b3c', name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'news' };

function memoryAudit(failOn: (entry: AuditEntry) => boolean = () => false): AuditLog & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    path: '/memory',
    entries,
    async append(entry) {
      if (failOn(entry)) throw new PrivacyDeskError({ code: 'INTERNAL', message: 'The audit trail /memory could not be written (ENOSPC).' });
      entries.push(entry);
    },
    async list() {
      return [...entries].reverse();
    },
  };
}

function client(overrides: Partial<ServiceClient> = {}): ServiceClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    profile,
    eraseUser: async (action, uid) => {
      calls.push(`${action}:${uid}`);
      return { action, uid, status: 200, completedAt: '2026-11-21T00:00:00.000Z' };
    },
    sendLogout: async (uid) => {
      calls.push(`logout:${uid}`);
      return { uid, status: 400, ok: false, headers: {}, body: { error: 'invalid_request' }, elapsedMs: 3, token: 'x', header: {}, claims: {} };
    },
    ...overrides,
  } as ServiceClient & { calls: string[] };
}

describe('erasure gate', () => {
  it('tells the operator the act happened when only the outcome line could not be written', async () => {
    const audit = memoryAudit((e) => e.outcome === 'succeeded');
    const c = client();
    await expect(performErasure({ client: c, profile, audit, via: 'app', action: 'delete', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/^The user was deleted \(status 200\), but the audit trail could not record the outcome\. Do not repeat/),
    });
    expect(c.calls).toEqual(['delete:bob']);
    expect(audit.entries.map((e) => e.outcome)).toEqual(['attempted']);
  });

  it('refuses an unknown action and an over-long reference before anything is written or sent', async () => {
    const audit = memoryAudit();
    const c = client();
    await expect(performErasure({ client: c, profile, audit, via: 'app', action: 'purge' as 'delete', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(performErasure({ client: c, profile, audit, via: 'app', action: 'delete', uid: 'bob', confirmUid: 'bob', reference: 'x'.repeat(201) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(c.calls).toEqual([]);
    expect(audit.entries).toEqual([]);
  });

  it('audits a refused logout as failed with LOGOUT_REJECTED and returns the result', async () => {
    const audit = memoryAudit();
    const result = await performLogout({ client: client(), profile, audit, via: 'cli', uid: 'bob' });
    expect(result.ok).toBe(false);
    expect(audit.entries.map((e) => [e.action, e.outcome, e.errorCode, e.status])).toEqual([
      ['logout', 'attempted', undefined, undefined],
      ['logout', 'failed', 'LOGOUT_REJECTED', 400],
    ]);
  });

  it('pairs each act\'s attempted and outcome entries by one actId, different for every act', async () => {
    const audit = memoryAudit();
    const c = client();
    await performErasure({ client: c, profile, audit, via: 'app', action: 'anonymize', uid: 'bob', confirmUid: 'bob' });
    await performLogout({ client: c, profile, audit, via: 'app', uid: 'bob' });
    await performErasure({ client: client({ eraseUser: async () => Promise.reject(new PrivacyDeskError({ code: 'TIMEOUT', message: 'outcome unknown' })) }), profile, audit, via: 'app', action: 'delete', uid: 'bob', confirmUid: 'bob' }).catch(() => undefined);
    expect(audit.entries.map((e) => e.outcome)).toEqual(['attempted', 'succeeded', 'attempted', 'failed', 'attempted', 'failed']);
    const ids = audit.entries.map((e) => e.actId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([ids[0] === ids[1], ids[2] === ids[3], ids[4] === ids[5]]).toEqual([true, true, true]);
    expect(new Set(ids).size).toBe(3);
  });

  it('records a thrown failure with its code and rethrows it unchanged', async () => {
    const audit = memoryAudit();
    const timeout = new PrivacyDeskError({ code: 'TIMEOUT', message: 'outcome unknown' });
    const c = client({ eraseUser: async () => Promise.reject(timeout) });
    await expect(performErasure({ client: c, profile, audit, via: 'app', action: 'anonymize', uid: 'bob', confirmUid: 'bob' })).rejects.toBe(timeout);
    expect(audit.entries.at(-1)).toMatchObject({ outcome: 'failed', errorCode: 'TIMEOUT' });
  });
});

describe('the gate is the only way to an irreversible call', () => {
  it('no source file outside the client and the gate calls anonymizeUser / deleteUser / eraseUser / client.sendLogout', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const allowed = new Set(['core/service-client.ts', 'core/types.ts', 'core/erasure.ts']);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (['node_modules', 'dist', '.git', 'test-results', 'playwright-report'].includes(name)) continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !allowed.has(relative(root, path))) {
          const text = readFileSync(path, 'utf8');
          if (/\.(anonymizeUser|deleteUser|eraseUser)\(|client\.sendLogout\(/.test(text)) offenders.push(relative(root, path));
        }
      }
    };
    for (const top of ['electron', 'cli', 'shared', 'renderer']) {
      try {
        walk(join(root, top));
      } catch {
        // a folder another part has not created yet
      }
    }
    expect(offenders).toEqual([]);
  });
});
