import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErasureAction } from '../shared/users';
import { createSessionCredentialStore } from './credential-store';
import { createDesk } from './desk';
import type { ServiceConnection } from './service/service-client';
import type { ServiceClient, ServiceClientOptions } from './types';
import { normalizeUser } from './user-record';

const PEOPLE = Array.from({ length: 250 }, (_, i) => normalizeUser({ id: i + 1, uid: `person-${i + 1}`, full_name: i === 180 ? 'Émile Zola' : `Person ${i + 1}` }));

function stubConnection(options: ServiceClientOptions, asked: number[]): ServiceConnection {
  const client: ServiceClient = {
    profile: options.profile,
    listUsers: async ({ page = 1, perPage = 10 } = {}) => {
      asked.push(perPage);
      const users = PEOPLE.slice((page - 1) * perPage, page * perPage);
      return { users, page, perPage, total: PEOPLE.length, totalPages: Math.ceil(PEOPLE.length / perPage), hasNext: page * perPage < PEOPLE.length };
    },
    buildLogoutToken: async () => ({ token: 't', header: {}, claims: {} }),
    verifyLogoutToken: async () => ({ valid: true, problems: [] }),
    checkToken: async (scope) => ({ scope, expiresAt: Date.now() + 7_200_000 }),
  };
  return {
    client,
    acts: {
      erase: async (action: ErasureAction, uid: string) => ({ action, uid, outcome: 'done', status: 200, requestId: 'req-1', completedAt: new Date().toISOString() }),
      sendLogout: async (uid) => ({ token: 't', header: {}, claims: { sub: uid }, uid, outcome: 'done', status: 200, ok: true, headers: {}, body: {}, elapsedMs: 1 }),
    },
  };
}

describe('the Desk’s user index (find a person on any page)', () => {
  let dataDir: string;
  let asked: number[];
  let clock: number;
  const makeDesk = () =>
    createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', now: () => clock, connect: (o) => stubConnection(o, asked) });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-index-test-'));
    asked = [];
    clock = Date.UTC(2026, 10, 22, 12);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('walks with 100 users a page, finds "emile", and never writes a user to the data folder', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' });
    expect(desk.searchUsers(id, 'emile')).toEqual({ state: 'missing' });
    expect(await desk.indexUsers(id)).toMatchObject({ users: 250, pages: 3 });
    expect(new Set(asked)).toEqual(new Set([100]));
    const answer = desk.searchUsers(id, 'emile');
    expect(answer).toMatchObject({ state: 'ready', total: 1, indexedUsers: 250 });
    for (const file of readdirSync(dataDir, { recursive: true }) as string[]) {
      const path = join(dataDir, file);
      try {
        expect(readFileSync(path, 'utf8')).not.toContain('Zola');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EISDIR') throw error;
      }
    }
  });

  it('drops the index when the profile is edited, and after an erasure no longer finds the user', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' });
    await desk.indexUsers(id);
    await desk.erase({ profileId: id, action: 'anonymize', uid: 'person-181', confirmUid: 'person-181', logoutFirst: false });
    expect(desk.searchUsers(id, 'emile')).toMatchObject({ state: 'ready', total: 0, indexedUsers: 249 });
    await desk.saveProfile({ id, name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'other-app' });
    expect(desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
  });

  it('drops the index after 15 minutes, and on request', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' });
    await desk.indexUsers(id);
    clock += 15 * 60_000;
    expect(desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
    await desk.indexUsers(id);
    expect(desk.forgetUserIndex(id)).toBe(true);
    expect(desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
  });
});
