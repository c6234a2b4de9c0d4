import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeResponse, ProfileView } from '../shared/contract';
import { WITHHELD_SIGNATURE, type BuiltLogoutToken, type LogoutResult } from '../shared/logout';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import type { FetchLike } from '../core/types';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

// No signed token for a live service leaves the core; logout options have limits.
const SECRET = 'logout-exposure-secret-3b9d7f1a5c2e8b4d6f0a9c3e7b1d5f2a8c4e6b0d9f3a7c1e5b';
const API_KEY = 'logout-exposure-key-1234';
/** Stands for a live service: https, not loopback. The test's fetch carries its requests to the sandbox. */
const LIVE_URL = 'https://debate.example.test';

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
let local: ProfileView;
let live: ProfileView;
let requests: string[] = [];

const liveToSandbox: FetchLike = (input, init) => {
  const url = String(input);
  requests.push(url);
  return fetch(url.startsWith(LIVE_URL) ? `${sandbox.url}${url.slice(LIVE_URL.length)}` : url, init);
};

const call = (method: string, input: unknown): Promise<BridgeResponse<unknown>> => dispatchBridgeCall(handlers, method, input);
async function value<T>(method: string, input: unknown): Promise<T> {
  const answer = await call(method, input);
  if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}

/** True when the text holds a compact JWS whose signature checks out with the API secret. */
async function holdsValidSignedToken(text: string): Promise<boolean> {
  for (const candidate of text.match(/[\w-]+\.[\w-]+\.[\w-]+/g) ?? []) {
    const ok = await compactVerify(candidate, new TextEncoder().encode(SECRET)).then(
      () => true,
      () => false,
    );
    if (ok) return true;
  }
  return false;
}

function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i += 1) value = { next: value };
  return value;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 10, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-logout-exposure-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', fetch: liveToSandbox, via: 'app' });
  handlers = createBridgeHandlers({ desk, appInfo: () => ({ version: '0', locale: 'en', keychain: desk.keychainStatus(), sandboxUrl: sandbox.url }), jobs: createJobRegistry(() => {}) });
  const common = { applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET };
  local = await value<ProfileView>('profiles.save', { name: 'On this computer', baseUrl: sandbox.url, ...common });
  live = await value<ProfileView>('profiles.save', { name: 'Live service', baseUrl: LIVE_URL, ...common });
  expect([local.isLocal, live.isLocal]).toEqual([true, false]);
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  requests = [];
});

describe('logout tokens for a live service never leave signed', () => {
  it('logout.preview shows header and claims with a placeholder signature', async () => {
    const built = await value<BuiltLogoutToken>('logout.preview', { profileId: live.id, uid: 'alice', options: { expiresInSeconds: 300 } });
    expect(built.signatureWithheld).toBe(true);
    expect(built.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(built.claims).toMatchObject({ sub: 'alice', aud: sandbox.credentials.applicationName });
    expect(built.token.split('.')[2]).toBe(WITHHELD_SIGNATURE);
    expect(await holdsValidSignedToken(JSON.stringify(built))).toBe(false);
  });

  it('logout.send still sends the signed token, and its result carries only the placeholder', async () => {
    const result = await value<LogoutResult>('logout.send', { profileId: live.id, uid: 'alice', options: {} });
    expect(result).toMatchObject({ ok: true, status: 200, outcome: 'done', signatureWithheld: true });
    expect(result.token.endsWith(`.${WITHHELD_SIGNATURE}`)).toBe(true);
    expect(requests.some((url) => url.startsWith(`${LIVE_URL}/auth/logout/`))).toBe(true);
    expect(await holdsValidSignedToken(JSON.stringify(result))).toBe(false);
  });

  it('claims a sign-on would read as identity are refused for a live service, before anything is sent', async () => {
    for (const extraClaims of [{ email: 'boss@example.org' }, { Role: 'admin' }, { admin: true }, { name: 'Boss' }]) {
      for (const method of ['logout.preview', 'logout.send']) {
        const answer = await call(method, { profileId: live.id, uid: 'alice', options: { extraClaims } });
        expect(answer.ok, `${method} ${JSON.stringify(extraClaims)}`).toBe(false);
        if (answer.ok) continue;
        expect(answer.error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
        expect(answer.error.message).toContain(Object.keys(extraClaims)[0]);
      }
    }
    expect(requests.filter((url) => url.includes('/auth/logout/'))).toEqual([]);
  });

  it('on this computer (the sandbox) the preview stays a real signed token for the tester, identity claims included', async () => {
    const built = await value<BuiltLogoutToken>('logout.preview', { profileId: local.id, uid: 'alice', options: { extraClaims: { email: 'alice@example.org' } } });
    expect(built.signatureWithheld).toBeUndefined();
    expect(await holdsValidSignedToken(built.token)).toBe(true);
  });
});

describe('logout options have limits, answered as validation errors', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['5,000 levels of nesting', { extraClaims: { deep: nested(5000) } }],
    ['5 levels of nesting', { extraClaims: { deep: nested(5) } }],
    ['a 1 MB audience', { audience: 'a'.repeat(1_000_000) }],
    ['a 1 MB jti', { jti: 'j'.repeat(1_000_000) }],
    ['21 extra claims', { extraClaims: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, i])) }],
    ['5 KB of extra claims', { extraClaims: { blob: 'x'.repeat(5000) } }],
    ['a claim name of 65 characters', { extraClaims: { ['n'.repeat(65)]: 1 } }],
    ['a wide array of 10,000 values', { extraClaims: { many: Array.from({ length: 10_000 }, () => 0) } }],
    ['a prototype key', { extraClaims: JSON.parse('{"constructor": {"prototype": 1}}') as Record<string, unknown> }],
    ['an exp 100 years ahead', { expiresInSeconds: 100 * 365 * 86_400 }],
  ];
  for (const [what, options] of cases) {
    for (const [method, profile] of [
      ['logout.preview', () => local],
      ['logout.send', () => live],
    ] as const) {
      it(`${method}: ${what} is INVALID_INPUT, not-sent, and nothing is sent`, async () => {
        const answer = await call(method, { profileId: profile().id, uid: 'alice', options });
        expect(answer.ok).toBe(false);
        if (answer.ok) return;
        expect(answer.error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
        expect(answer.error.message.length).toBeLessThan(1000);
        expect(requests.filter((url) => url.includes('/auth/logout/'))).toEqual([]);
      });
    }
  }

  it('within the limits a token is built', async () => {
    const options = { audience: 'a'.repeat(256), jti: 'j'.repeat(256), extraClaims: { deep: nested(3), sid: 'abc' } };
    const built = await value<BuiltLogoutToken>('logout.preview', { profileId: local.id, uid: 'alice', options });
    expect(built.claims).toMatchObject({ aud: 'a'.repeat(256), sid: 'abc' });
  });
});
