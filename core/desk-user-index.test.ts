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
    verifyLogoutToken: async () => ({ valid: true, problems: [], problemTexts: [] }),
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
  let credentialStore: ReturnType<typeof createSessionCredentialStore>;
  const makeDesk = (via: 'app' | 'cli' = 'app') =>
    // One store for every Desk: the keychain is shared by the processes of one computer.
    createDesk({ dataDir, credentialStore, via, now: () => clock, connect: (o) => stubConnection(o, asked) });
  const localProfile = { name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' };

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-index-test-'));
    asked = [];
    credentialStore = createSessionCredentialStore();
    clock = Date.UTC(2026, 10, 22, 12);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('walks with 100 users a page, finds "emile", and never writes a user to the data folder', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' });
    expect(await desk.searchUsers(id, 'emile')).toEqual({ state: 'missing' });
    expect(await desk.indexUsers(id)).toMatchObject({ users: 250, pages: 3 });
    expect(new Set(asked)).toEqual(new Set([100]));
    const answer = await desk.searchUsers(id, 'emile');
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
    expect(await desk.searchUsers(id, 'emile')).toMatchObject({ state: 'ready', total: 0, indexedUsers: 249 });
    await desk.saveProfile({ id, name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'other-app' });
    expect(await desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
  });

  it('drops the index after 15 minutes, and on request', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Local', baseUrl: 'http://127.0.0.1:4600', applicationName: 'app', apiKey: 'k', apiSecret: 's' });
    await desk.indexUsers(id);
    clock += 15 * 60_000;
    expect(await desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
    await desk.indexUsers(id);
    expect(desk.forgetUserIndex(id)).toBe(true);
    expect(await desk.searchUsers(id, 'person')).toEqual({ state: 'missing' });
  });

  it('drops a user another process on this computer erased (the CLI, same profile) before the next search and lookup', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile(localProfile);
    await desk.indexUsers(id);
    expect(await desk.lookupUser(id, 'person-181')).toMatchObject({ state: 'found' });
    // The CLI: its own process, the same data folder and profile, its own Desk.
    const cli = makeDesk('cli');
    await cli.erase({ profileId: id, action: 'delete', uid: 'person-181', confirmUid: 'person-181', logoutFirst: false });
    expect(await desk.searchUsers(id, 'emile')).toMatchObject({ state: 'ready', total: 0, indexedUsers: 249 });
    expect(await desk.lookupUser(id, 'person-181')).toMatchObject({ state: 'absent', indexedUsers: 249, erasure: { action: 'delete', via: 'cli', outcome: 'verification' } });
  });

  it('drops a user erased through --base-url (no profile, the same service written another way), not one erased on another service', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile(localProfile);
    await desk.indexUsers(id);
    const cli = makeDesk('cli');
    cli.useTemporaryConnection({ baseUrl: 'http://127.0.0.1:4600/api/v1/', applicationName: 'app', credentials: { apiKey: 'k', apiSecret: 's' } });
    await cli.erase({ profileId: 'temporary', action: 'anonymize', uid: 'person-3', confirmUid: 'person-3', logoutFirst: false });
    const other = makeDesk('cli');
    const elsewhere = await other.saveProfile({ ...localProfile, name: 'Elsewhere', baseUrl: 'http://127.0.0.1:4700' });
    await other.erase({ profileId: elsewhere.id, action: 'delete', uid: 'person-4', confirmUid: 'person-4', logoutFirst: false });
    expect(await desk.lookupUser(id, 'person-3')).toMatchObject({ state: 'absent', erasure: { action: 'anonymize', via: 'cli' } });
    expect(await desk.lookupUser(id, 'person-4')).toMatchObject({ state: 'found', user: { uid: 'person-4' } });
  });

  it('without a kept list, a lookup says the uid was erased since start; a refused or unsent act changes nothing', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile(localProfile);
    expect(await desk.lookupUser(id, 'person-7')).toEqual({ state: 'missing' });
    const cli = makeDesk('cli');
    await expect(cli.erase({ profileId: id, action: 'delete', uid: 'person-8', confirmUid: 'person-9', logoutFirst: false })).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH' });
    await cli.erase({ profileId: id, action: 'delete', uid: 'person-7', confirmUid: 'person-7', logoutFirst: false });
    expect(await desk.lookupUser(id, 'person-7')).toMatchObject({ state: 'missing', erasure: { action: 'delete', via: 'cli' } });
    expect(await desk.lookupUser(id, 'person-8')).toEqual({ state: 'missing' });
  });

  it('says when a page was read (its own clock), and which of its users any process on this computer erased since', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile(localProfile);
    const cli = makeDesk('cli');
    await cli.erase({ profileId: id, action: 'delete', uid: 'person-2', confirmUid: 'person-2', logoutFirst: false });
    clock += 1000;
    const page = await desk.listUsers(id, { page: 1, perPage: 10 });
    expect(page.readAt).toBe(new Date(clock).toISOString());
    const uids = page.users.map((user) => user.uid!);
    clock += 60_000;
    await cli.erase({ profileId: id, action: 'delete', uid: 'person-3', confirmUid: 'person-3', logoutFirst: false });
    await desk.erase({ profileId: id, action: 'anonymize', uid: 'person-5', confirmUid: 'person-5', logoutFirst: false });
    // person-2 was erased before the page was read: what the service answered already says so.
    const answer = await desk.erasedSince(id, uids, page.readAt!);
    expect(answer.complete).toBe(true);
    expect(answer.erasures.map((erasure) => [erasure.uid, erasure.action, erasure.via])).toEqual([
      ['person-3', 'delete', 'cli'],
      ['person-5', 'anonymize', 'app'],
    ]);
  });

  it('answers how old the list is, and reads it again on request', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile(localProfile);
    await desk.indexUsers(id);
    clock += 4 * 60_000;
    expect(await desk.lookupUser(id, 'person-1')).toMatchObject({ state: 'found', ageMs: 240_000 });
    expect(await desk.searchUsers(id, 'person-1')).toMatchObject({ state: 'ready', ageMs: 240_000 });
    await desk.indexUsers(id);
    expect(await desk.lookupUser(id, 'person-1')).toMatchObject({ state: 'found', ageMs: 0 });
  });
});
