import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppInfo, BridgeResponse, ProfileView } from '../shared/contract';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import type { FetchLike } from '../core/types';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

// A distinctive secret: if it ever shows up in a bridge answer, the scan below finds it.
const SECRET = 'bridge-test-secret-7f3a9c1e5b2d8f4a6c0e9b7d5f3a1c8e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c';
const API_KEY = 'bridge-test-key-ABCD';

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
let requestCount = 0;
const issuedTokens: string[] = [];
const responses: BridgeResponse<unknown>[] = [];

/** Counts every request the core sends and remembers every access token the service issues. */
const recordingFetch: FetchLike = async (input, init) => {
  requestCount += 1;
  const response = await fetch(input, init);
  if (String(input).endsWith('/oauth/token') && response.ok) {
    const body = (await response.clone().json()) as { access_token?: string };
    if (body.access_token) issuedTokens.push(body.access_token);
  }
  return response;
};

async function call(method: string, input: unknown): Promise<BridgeResponse<unknown>> {
  const response = await dispatchBridgeCall(handlers, method, input);
  responses.push(response);
  return response;
}

async function value<T>(method: string, input: unknown): Promise<T> {
  const response = await call(method, input);
  if (!response.ok) throw new Error(`${method} failed: ${response.error.code} ${response.error.message}`);
  return response.value as T;
}

async function sandboxState(uid: string): Promise<{ state: string; sessionCount: number }> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  return (await response.json()) as { state: string; sessionCount: number };
}

let profile: ProfileView;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 30, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-handlers-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', fetch: recordingFetch, via: 'app' });
  const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'en-GB', keychain: desk.keychainStatus(), sandboxUrl: sandbox.url });
  handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(() => {}) }); // jobs: job-handlers.test.ts
  profile = await value<ProfileView>('profiles.save', {
    name: 'Test service',
    baseUrl: `${sandbox.url}/api/v1/`,
    applicationName: sandbox.credentials.applicationName,
    apiKey: API_KEY,
    apiSecret: SECRET,
  });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('bridge handlers over a real Desk and the sandbox', () => {
  it('app.info reports version, locale and the keychain fallback', async () => {
    const info = await value<AppInfo>('app.info', {});
    expect(info).toMatchObject({ version: '9.9.9', locale: 'en-GB', keychain: { available: false, problem: 'no keychain in tests' } });
    // A call without an argument is the same as {}.
    expect((await call('app.info', undefined)).ok).toBe(true);
  });

  it('profiles.save normalises the address and shows only a key hint', async () => {
    expect(profile).toMatchObject({ name: 'Test service', baseUrl: sandbox.url, isLocal: true, hasCredentials: true, apiKeyHint: 'ABCD' });
    const renamed = await value<ProfileView>('profiles.save', { id: profile.id, name: 'Test service (renamed)', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName });
    expect(renamed).toMatchObject({ id: profile.id, name: 'Test service (renamed)', hasCredentials: true });
  });

  it('profiles.list and profiles.setActive', async () => {
    expect(await value('profiles.setActive', { id: profile.id })).toEqual({ activeId: profile.id });
    const listed = await value<{ profiles: ProfileView[]; activeId: string }>('profiles.list', {});
    expect(listed.activeId).toBe(profile.id);
    expect(listed.profiles.map((p) => p.id)).toContain(profile.id);
  });

  it('profiles.testConnection reports each step', async () => {
    const { checks } = await value<{ checks: { step: string; ok: boolean }[] }>('profiles.testConnection', { id: profile.id });
    expect(checks.map((c) => [c.step, c.ok])).toEqual([
      ['token-authentication', true],
      ['token-public', true],
      ['list-users', true],
    ]);
  });

  it('users.list returns a page', async () => {
    const page = await value<{ users: { uid: string }[]; page: number; total: number; hasNext: boolean }>('users.list', { profileId: profile.id, page: 2, perPage: 5 });
    expect(page).toMatchObject({ page: 2, perPage: 5, total: 30, hasNext: true });
    expect(page.users).toHaveLength(5);
  });

  it('users.erase anonymises through the gate and the audit trail records it', async () => {
    const uid = 'bob+news@example.org';
    const result = await value<{ action: string; uid: string; status: number }>('users.erase', { profileId: profile.id, action: 'anonymize', uid, confirmUid: uid, reference: 'TICKET-1' });
    expect(result).toMatchObject({ action: 'anonymize', uid, status: 200 });
    expect((await sandboxState(uid)).state).toBe('anonymized');
    const state = await value<{ exists: boolean; anonymized: boolean }>('sandbox.userState', { profileId: profile.id, uid });
    expect(state).toMatchObject({ exists: true, anonymized: true });
    expect(result).toMatchObject({ logout: { outcome: 'done', status: 200 }, verification: 'verified', verificationStatus: 404 });
    // Newest first: logged out (the default), anonymised, then verified, all under one act id.
    const { entries } = await value<{ entries: { uid: string; action: string; outcome: string; via: string; reference?: string; actId?: string }[] }>('audit.list', {});
    const act = entries.slice(0, 6);
    expect(act.map((e) => [e.uid, e.action, e.outcome, e.via, e.reference])).toEqual([
      [uid, 'anonymize', 'verification', 'app', 'TICKET-1'],
      [uid, 'anonymize', 'attempted', 'app', 'TICKET-1'],
      [uid, 'anonymize', 'done', 'app', 'TICKET-1'],
      [uid, 'anonymize', 'attempted', 'app', 'TICKET-1'],
      [uid, 'logout', 'done', 'app', 'TICKET-1'],
      [uid, 'logout', 'attempted', 'app', 'TICKET-1'],
    ]);
    expect(new Set(act.map((e) => e.actId)).size).toBe(1);
  });

  it('users.erase deletes a user with an awkward uid', async () => {
    const uid = 'mixed /?#% ü+';
    await value('users.erase', { profileId: profile.id, action: 'delete', uid, confirmUid: uid });
    expect((await sandboxState(uid)).state).toBe('deleted');
  });

  it('logout.preview, logout.send and logout.verify', async () => {
    const uid = 'alice@example.org';
    await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}/login`, { method: 'POST' });
    expect((await sandboxState(uid)).sessionCount).toBeGreaterThan(0);

    const preview = await value<{ token: string; claims: Record<string, unknown> }>('logout.preview', { profileId: profile.id, uid, options: {} });
    expect(preview.claims.sub).toBe(uid);
    const verification = await value<{ valid: boolean; problems: string[] }>('logout.verify', { profileId: profile.id, token: preview.token });
    expect(verification).toMatchObject({ valid: true, problems: [] });
    const broken = await value<{ valid: boolean; problems: string[] }>('logout.verify', { profileId: profile.id, token: `${preview.token}x` });
    expect(broken.valid).toBe(false);

    const sent = await value<{ ok: boolean; status: number }>('logout.send', { profileId: profile.id, uid, options: { algorithm: 'HS512' } });
    expect(sent).toMatchObject({ ok: true, status: 200 });
    expect((await sandboxState(uid)).sessionCount).toBe(0);
  });

  it('profiles.remove needs the exact name, then removes the profile', async () => {
    const other = await value<ProfileView>('profiles.save', { name: 'Throwaway', baseUrl: sandbox.url, applicationName: 'x', apiKey: 'k', apiSecret: 's' });
    const refused = await call('profiles.remove', { id: other.id, confirmName: 'throwaway' });
    expect(refused.ok).toBe(false);
    expect(await value('profiles.remove', { id: other.id, confirmName: 'Throwaway' })).toEqual({ removed: true });
    const { profiles } = await value<{ profiles: ProfileView[] }>('profiles.list', {});
    expect(profiles.map((p) => p.id)).not.toContain(other.id);
  });
});

describe('bad input is refused before any request is sent', () => {
  it.each([
    ['an unknown method', 'users.purgeEverything', {}],
    ['a prototype key as method', '__proto__', {}],
    ['a missing profile id', 'users.list', { page: 1 }],
    ['a page size over 100', 'users.list', { profileId: 'x', perPage: 1000 }],
    ['a page that is not a number', 'users.list', { profileId: 'x', page: 'two' }],
    ['an unknown erase action', 'users.erase', { profileId: 'x', action: 'purge', uid: 'a', confirmUid: 'a' }],
    ['a reference longer than 200 characters', 'users.erase', { profileId: 'x', action: 'delete', uid: 'a', confirmUid: 'a', reference: 'r'.repeat(201) }],
    ['an input that is not an object', 'audit.list', 'all'],
    ['an unsupported logout algorithm', 'logout.send', { profileId: 'x', uid: 'a', options: { algorithm: 'none' } }],
  ])('%s', async (_label, method, input) => {
    const before = requestCount;
    const response = await call(method, input);
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    if (!response.ok) expect(response.error.message.length).toBeGreaterThan(20);
    expect(requestCount).toBe(before);
  });

  it('a confirmation that differs from the uid sends nothing and leaves the user untouched', async () => {
    const before = requestCount;
    const response = await call('users.erase', { profileId: profile.id, action: 'delete', uid: 'jean dupont', confirmUid: 'jean dupont ' });
    expect(response).toMatchObject({ ok: false, error: { code: 'CONFIRMATION_MISMATCH' } });
    expect(requestCount).toBe(before);
    expect((await sandboxState('jean dupont')).state).toBe('active');
  });

  it('an invalid uid (line break) sends nothing', async () => {
    const before = requestCount;
    const response = await call('users.erase', { profileId: profile.id, action: 'anonymize', uid: 'a\nb', confirmUid: 'a\nb' });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(requestCount).toBe(before);
  });

  it('an unknown profile is a clear PROFILE_NOT_FOUND', async () => {
    const response = await call('users.list', { profileId: 'no-such-profile' });
    expect(response).toMatchObject({ ok: false, error: { code: 'PROFILE_NOT_FOUND' } });
  });
});

describe('errors crossing the bridge', () => {
  it('an unexpected error becomes a generic INTERNAL answer without its message', async () => {
    const failing = { ...handlers, 'profiles.list': async () => { throw new Error(`boom ${SECRET}`); } } as BridgeHandlers;
    const response = await dispatchBridgeCall(failing, 'profiles.list', {});
    expect(response).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(response)).not.toContain('boom');
    expect(JSON.stringify(response)).not.toContain('stack');
  });

  it('a service error keeps its code and status', async () => {
    const response = await call('users.erase', { profileId: profile.id, action: 'delete', uid: 'never-existed', confirmUid: 'never-existed' });
    expect(response).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', status: 404 } });
  });
});

describe('secrets never cross the bridge', () => {
  it('no answer contains the API secret or any access token the service issued', () => {
    expect(issuedTokens.length).toBeGreaterThan(0);
    expect(responses.length).toBeGreaterThan(20);
    const everything = JSON.stringify(responses);
    expect(everything).not.toContain(SECRET);
    for (const token of issuedTokens) expect(everything).not.toContain(token);
    expect(everything).not.toMatch(/Bearer\s+\S/);
  });
});
