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

const SECRET = 'sandbox-login-test-secret-3c5e7a9b1d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f';
const API_KEY = 'sandbox-login-test-key';

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
const requests: string[] = [];

/** Every request the core sends, by URL: a refused call must add none. */
const recordingFetch: FetchLike = async (input, init) => {
  requests.push(String(input));
  return fetch(input, init);
};

const call = (method: string, input: unknown): Promise<BridgeResponse<unknown>> => dispatchBridgeCall(handlers, method, input);

async function sessionsOf(uid: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  return ((await response.json()) as { sessionCount: number }).sessionCount;
}

let local: ProfileView;
let live: ProfileView;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 12, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-sandbox-login-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', fetch: recordingFetch, via: 'app' });
  const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'en', keychain: desk.keychainStatus(), sandboxUrl: sandbox.url });
  handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(() => {}) });
  const save = async (name: string, baseUrl: string) => {
    const response = await call('profiles.save', { name, baseUrl, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET });
    if (!response.ok) throw new Error(response.error.message);
    return response.value as ProfileView;
  };
  local = await save('Sandbox', `${sandbox.url}/api/v1/`);
  live = await save('City portal', 'https://debate.example.org/api/v1/');
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('sandbox.simulateLogin (the logout tester\'s "Simulate a login")', () => {
  it('opens one session for the uid on a loopback sandbox', async () => {
    const before = await sessionsOf('jean dupont');
    const response = await call('sandbox.simulateLogin', { profileId: local.id, uid: 'jean dupont' });
    expect(response).toEqual({ ok: true, value: { sessionCount: before + 1 } });
    expect(await sessionsOf('jean dupont')).toBe(before + 1);
  });

  it('is refused for a live profile with nothing sent', async () => {
    const before = requests.length;
    const response = await call('sandbox.simulateLogin', { profileId: live.id, uid: 'jean dupont' });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent' } });
    if (!response.ok) expect(response.error.message).toContain('live data');
    expect(requests.slice(before)).toEqual([]);
  });

  it('says NOT_FOUND for a uid the sandbox does not have', async () => {
    const response = await call('sandbox.simulateLogin', { profileId: local.id, uid: 'jean dupond' });
    expect(response).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
