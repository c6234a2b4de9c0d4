import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../shared/errors';
import type { ErasureAction } from '../shared/users';
import { createSessionCredentialStore } from './credential-store';
import { createDesk } from './desk';
import type { ServiceActs } from './service/service-acts';
import type { ServiceConnection } from './service/service-client';
import type { ServiceClient, ServiceClientOptions } from './types';
import { wordInEnglish } from '../shared/messages';

const SECRET = 'very-distinctive-secret-value-0123456789';

function stubConnection(options: ServiceClientOptions, calls: string[]): ServiceConnection {
  const client: ServiceClient = {
    profile: options.profile,
    listUsers: async () => ({ users: [], page: 1, perPage: 1, total: 0, totalPages: 0, hasNext: false }),
    buildLogoutToken: async () => ({ token: 't', header: {}, claims: {} }),
    verifyLogoutToken: async () => ({ valid: true, problemTexts: [], problems: [] }),
    checkToken: async (scope) => {
      if (scope === 'public') throw new PrivacyDeskError({ code: 'INSUFFICIENT_SCOPE', message: 'no public scope' });
      return { scope, expiresAt: Date.now() + 7_200_000 };
    },
  };
  const acts: ServiceActs = {
    erase: async (action: ErasureAction, uid: string) => {
      calls.push(`${action}:${uid}`);
      if (uid === 'missing') throw new PrivacyDeskError({ code: 'NOT_FOUND', message: 'No user', status: 404, requestId: 'req-404' });
      return { action, uid, outcome: 'done', status: 200, requestId: 'req-1', completedAt: new Date().toISOString() };
    },
    sendLogout: async (uid) => ({ token: 't', header: {}, claims: { sub: uid }, uid, outcome: 'done', status: 200, ok: true, headers: {}, body: {}, elapsedMs: 1 }),
  };
  return { client, acts };
}

describe('Desk', () => {
  let dataDir: string;
  let calls: string[];
  let built: number;
  const makeDesk = () =>
    createDesk({
      dataDir,
      credentialStore: createSessionCredentialStore(),
      via: 'cli',
      connect: (o) => {
        built += 1;
        return stubConnection(o, calls);
      },
    });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-test-'));
    calls = [];
    built = 0;
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates, lists, edits and removes a profile without ever writing the secret to disk', async () => {
    const desk = makeDesk();
    const view = await desk.saveProfile({ name: 'Production EU', baseUrl: 'https://debate.example.com/api/v1/', applicationName: 'news', apiKey: 'key-ABCD1234', apiSecret: SECRET });
    expect(view).toMatchObject({ name: 'Production EU', baseUrl: 'https://debate.example.com', isLocal: false, hasCredentials: true, credentialStorage: 'session', apiKeyHint: '1234' });
    expect(view.id).toMatch(/^production-eu-[0-9a-f]{6}$/);
    expect(JSON.stringify(view)).not.toContain(SECRET);

    const listed = await desk.listProfiles();
    expect(listed.activeId).toBe(view.id);
    expect(listed.profiles).toHaveLength(1);

    // Edit without key/secret keeps the stored ones.
    const edited = await desk.saveProfile({ id: view.id, name: 'Production', baseUrl: 'https://debate.example.com', applicationName: 'news2' });
    expect(edited).toMatchObject({ name: 'Production', applicationName: 'news2', apiKeyHint: '1234', hasCredentials: true });

    for (const file of readdirSync(dataDir)) expect(readFileSync(join(dataDir, file), 'utf8')).not.toContain(SECRET);

    await expect(desk.removeProfile(view.id, 'production')).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH' });
    await desk.removeProfile(view.id, 'Production');
    expect(await desk.listProfiles()).toEqual({ profiles: [], activeId: null });
  });

  it('refuses duplicate names (ignoring case), missing credentials on create and plain http to a remote host', async () => {
    const desk = makeDesk();
    await desk.saveProfile({ name: 'Staging', baseUrl: 'https://s.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' });
    await expect(desk.saveProfile({ name: 'staging', baseUrl: 'https://t.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('already exists') });
    await expect(desk.saveProfile({ name: 'Other', baseUrl: 'https://t.example.com', applicationName: 'a', apiKey: 'k' })).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('secret key') });
    await expect(desk.saveProfile({ name: 'Other', baseUrl: 'http://t.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(desk.saveProfile({ id: 'nope-123456', name: 'X', baseUrl: 'https://t.example.com', applicationName: 'a' })).rejects.toMatchObject({ code: 'PROFILE_NOT_FOUND' });
    expect((await desk.listProfiles()).profiles).toHaveLength(1);
  });

  it('reports a corrupt profiles.json, never overwrites it, and sets it aside only on request', async () => {
    const path = join(dataDir, 'profiles.json');
    writeFileSync(path, '{ not json');
    const desk = makeDesk();
    await expect(desk.listProfiles()).rejects.toMatchObject({ code: 'PROFILE_STORE_CORRUPT', message: expect.stringContaining(path) });
    await expect(desk.saveProfile({ name: 'A', baseUrl: 'https://a.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' })).rejects.toMatchObject({ code: 'PROFILE_STORE_CORRUPT' });
    expect(readFileSync(path, 'utf8')).toBe('{ not json');
    const { setAsidePath } = await desk.startFresh();
    expect(setAsidePath).toMatch(/profiles\.json\.corrupt-/);
    expect(readFileSync(setAsidePath!, 'utf8')).toBe('{ not json');
    expect(await desk.listProfiles()).toEqual({ profiles: [], activeId: null });
  });

  it('creates the reserved sandbox profile, makes it active only when nothing is, and reuses one connection per profile', async () => {
    const desk = makeDesk();
    const view = await desk.ensureSandboxProfile({ url: 'http://127.0.0.1:4600/', credentials: { apiKey: 'sandbox-api-key', apiSecret: SECRET } });
    expect(view).toMatchObject({ id: 'sandbox', name: 'Sandbox', isLocal: true, baseUrl: 'http://127.0.0.1:4600' });
    expect((await desk.listProfiles()).activeId).toBe('sandbox');
    await desk.listUsers('sandbox');
    await desk.erase({ profileId: 'sandbox', action: 'anonymize', uid: 'a', confirmUid: 'a' });
    expect(built).toBe(1);
    await desk.ensureSandboxProfile({ url: 'http://127.0.0.1:4601', credentials: { apiKey: 'sandbox-api-key', apiSecret: SECRET } });
    await desk.listUsers('sandbox');
    expect(built).toBe(2);
  });

  it('hands out nothing that can erase or log out except through the gate', () => {
    const desk = makeDesk();
    // Neither the facade nor anything it returns carries a client or an irreversible call.
    expect(Object.keys(desk)).not.toContain('clientFor');
    for (const name of ['anonymizeUser', 'deleteUser', 'eraseUser', 'acts', 'gate']) expect(Object.keys(desk)).not.toContain(name);
  });

  it('erases only through the gate: mismatch sends nothing, every act is audited before and after', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'a', apiKey: 'k', apiSecret: SECRET });
    await expect(desk.erase({ profileId: id, action: 'anonymize', uid: 'alice', confirmUid: 'alice ' })).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH', message: expect.stringContaining('nothing was sent') });
    await expect(desk.erase({ profileId: id, action: 'delete', uid: '', confirmUid: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(calls).toEqual([]);
    expect(await desk.auditEntries(10)).toEqual([]);

    const result = await desk.erase({ profileId: id, action: 'anonymize', uid: 'alice', confirmUid: 'alice', reference: 'TICKET-1', logoutFirst: false });
    expect(result.status).toBe(200);
    await expect(desk.erase({ profileId: id, action: 'delete', uid: 'missing', confirmUid: 'missing', logoutFirst: false })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const entries = await desk.auditEntries(10);
    expect(entries.map((e) => `${e.action}:${e.uid}:${e.outcome}`)).toEqual([
      'delete:missing:refused',
      'delete:missing:attempted',
      'anonymize:alice:verification',
      'anonymize:alice:attempted',
      'anonymize:alice:done',
      'anonymize:alice:attempted',
    ]);
    expect(entries[0]).toMatchObject({ errorCode: 'NOT_FOUND', status: 404, requestId: 'req-404', via: 'cli', profileName: 'Prod' });
    expect(entries[4]).toMatchObject({ reference: 'TICKET-1', requestId: 'req-1', status: 200 });
    expect(readFileSync(join(dataDir, 'audit.jsonl'), 'utf8')).not.toContain(SECRET);
  });

  it('does not act when the audit trail cannot be written', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' });
    // A folder where the audit file should be makes every append fail.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dataDir, 'audit.jsonl'));
    await expect(desk.erase({ profileId: id, action: 'delete', uid: 'bob', confirmUid: 'bob' })).rejects.toMatchObject({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent', message: expect.stringContaining('Nothing was sent') });
    expect(calls).toEqual([]);
  });

  it('reports each connection step, a failing one not stopping the others', async () => {
    const desk = makeDesk();
    const { id } = await desk.saveProfile({ name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' });
    const checks = await desk.testConnection(id);
    expect(checks.map((c) => [c.step, c.ok])).toEqual([['token-authentication', true], ['token-public', false], ['list-users', true]]);
    expect(checks[1]?.error?.code).toBe('INSUFFICIENT_SCOPE');
    expect(wordInEnglish(checks[0]!.detail!)).toMatch(/scope authentication, expires in 2 h/);
  });

  it('stops the connection test at the first failure that is not a missing scope (one network error, said once)', async () => {
    const desk = createDesk({
      dataDir,
      credentialStore: createSessionCredentialStore(),
      via: 'cli',
      connect: (o) => {
        const stub = stubConnection(o, calls);
        const unreachable = async (): Promise<never> => {
          throw new PrivacyDeskError({ code: 'NETWORK', message: 'Could not reach p.example.com.' });
        };
        return { ...stub, client: { ...stub.client, checkToken: unreachable, listUsers: unreachable } };
      },
    });
    const { id } = await desk.saveProfile({ name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' });
    const checks = await desk.testConnection(id);
    expect(checks.map((c) => [c.step, c.ok, c.error?.code])).toEqual([['token-authentication', false, 'NETWORK']]);
  });

  it('says plainly when the session store has no credentials and the keychain is unavailable', async () => {
    const desk1 = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'No Secret Service on D-Bus.', via: 'app', connect: (o) => stubConnection(o, calls) });
    const { id } = await desk1.saveProfile({ name: 'Prod', baseUrl: 'https://p.example.com', applicationName: 'a', apiKey: 'k', apiSecret: 's' });
    expect(desk1.keychainStatus()).toEqual({ available: false, problem: 'No Secret Service on D-Bus.' });
    // A new process: the session store is empty.
    const desk2 = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'No Secret Service on D-Bus.', via: 'app', connect: (o) => stubConnection(o, calls) });
    expect((await desk2.listProfiles()).profiles[0]).toMatchObject({ hasCredentials: false, credentialStorage: 'none' });
    await expect(desk2.listUsers(id)).rejects.toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE', outcome: 'not-sent' });
  });
});

describe('Desk input checks', () => {
  it('refuses a malformed save input with INVALID_INPUT instead of crashing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'desk-input-'));
    try {
      const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app' });
      await expect(desk.saveProfile({ name: 42, baseUrl: 'https://x.example.com', applicationName: 'a' } as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('name') });
      await expect(desk.saveProfile({ id: 'Bad Id!', name: 'X', baseUrl: 'https://x.example.com', applicationName: 'a' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
