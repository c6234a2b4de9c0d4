import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeResponse, ProfileView } from '../shared/contract';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore, type CredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

// Stored credentials are bound to the origin they were entered for.
const SECRET = 'origin-test-secret-5e8c2a9f1d7b3e6a0c4f8d2b9e1a7c3f';
const API_KEY = 'origin-test-key-WXYZ';

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A foreign service on loopback that only records what reaches it. */
let foreign: Server;
let foreignUrl: string;
const seen: Recorded[] = [];

let sandbox: RunningSandbox;
let dataDir: string;
let credentialStore: CredentialStore;
let handlers: BridgeHandlers;
let profile: ProfileView;

function handlersOverFreshDesk(): BridgeHandlers {
  // A fresh Desk: no cached connection, it reads profiles.json and the credential store again.
  const desk = createDesk({ dataDir, credentialStore, credentialProblem: 'no keychain in tests', via: 'app' });
  return createBridgeHandlers({ desk, appInfo: () => ({ version: '0', locale: 'en', keychain: desk.keychainStatus(), sandboxUrl: sandbox.url }), jobs: createJobRegistry(() => {}) });
}

const call = (method: string, input: unknown, over = handlers): Promise<BridgeResponse<unknown>> => dispatchBridgeCall(over, method, input);

function expectNothingReachedTheForeignService(): void {
  const everything = JSON.stringify(seen);
  expect(everything).not.toContain(SECRET);
  expect(everything).not.toContain('client_secret');
  expect(seen.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
  expect(seen).toEqual([]);
}

beforeAll(async () => {
  foreign = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: 'harvested', expires_in: 3600, token_type: 'Bearer' }));
    });
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignUrl = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}`;
  sandbox = await startSandbox({ port: 0, users: 5, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-origin-'));
  credentialStore = createSessionCredentialStore();
  handlers = handlersOverFreshDesk();
  const saved = await call('profiles.save', { name: 'Sandbox service', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET });
  if (!saved.ok) throw new Error(saved.error.message);
  profile = saved.value as ProfileView;
});

afterAll(async () => {
  await sandbox?.close();
  await new Promise<void>((resolve) => (foreign ? foreign.close(() => resolve()) : resolve()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  seen.length = 0;
});

describe('stored credentials never reach another origin', () => {
  it('profiles.save refuses a new origin without the key and secret, and the profile keeps working where it was', async () => {
    const moved = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: foreignUrl, applicationName: profile.applicationName });
    expect(moved.ok).toBe(false);
    if (moved.ok) return;
    expect(moved.error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
    expect(moved.error.message).toMatch(/enter the API key and the secret key again/i);
    expect(moved.error.message).toContain(foreignUrl);

    // Only the key, or only the secret, is not enough either.
    const keyOnly = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: foreignUrl, applicationName: profile.applicationName, apiKey: API_KEY });
    expect(keyOnly.ok).toBe(false);

    const checked = await call('profiles.testConnection', { id: profile.id });
    expect(checked.ok).toBe(true);
    const listed = await call('profiles.list', {});
    expect(listed.ok && (listed.value as { profiles: ProfileView[] }).profiles.find((p) => p.id === profile.id)?.baseUrl).toBe(sandbox.url);
    expectNothingReachedTheForeignService();
  });

  it('a profile moved to another origin behind the app’s back (profiles.json edited) sends nothing there', async () => {
    const file = join(dataDir, 'profiles.json');
    const original = await readFile(file, 'utf8');
    const data = JSON.parse(original) as { profiles: { id: string; baseUrl: string }[] };
    for (const p of data.profiles) if (p.id === profile.id) p.baseUrl = foreignUrl;
    await writeFile(file, JSON.stringify(data));
    try {
      const fresh = handlersOverFreshDesk();
      for (const [method, input] of [
        ['profiles.testConnection', { id: profile.id }],
        ['users.list', { profileId: profile.id, page: 1, perPage: 5 }],
        ['logout.preview', { profileId: profile.id, uid: 'alice', options: {} }],
      ] as const) {
        const answer = await call(method, input, fresh);
        expect(answer.ok, method).toBe(false);
        if (answer.ok) continue;
        expect(answer.error, method).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
        expect(answer.error.message, method).toContain(`entered for ${sandbox.url}`);
        expect(answer.error.message, method).toMatch(/enter the key and secret again/i);
      }
      expectNothingReachedTheForeignService();
    } finally {
      await writeFile(file, original);
    }
  });

  it('entering the key and secret again moves the binding; going back then needs them again', async () => {
    const sameOriginNewPath = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: `${sandbox.url}/api/v1`, applicationName: profile.applicationName });
    expect(sameOriginNewPath.ok).toBe(true); // the same origin needs nothing new

    const moved = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: foreignUrl, applicationName: profile.applicationName, apiKey: 'foreign-key', apiSecret: 'foreign-secret' });
    expect(moved.ok).toBe(true);
    const back = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: sandbox.url, applicationName: profile.applicationName });
    expect(back.ok).toBe(false);
    const restored = await call('profiles.save', { id: profile.id, name: profile.name, baseUrl: sandbox.url, applicationName: profile.applicationName, apiKey: API_KEY, apiSecret: SECRET });
    expect(restored.ok).toBe(true);
    const checked = await call('profiles.testConnection', { id: profile.id });
    expect(checked.ok && (checked.value as { checks: { ok: boolean }[] }).checks.every((c) => c.ok)).toBe(true);
    expectNothingReachedTheForeignService();
  });
});
