import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/server';
import { connectToService } from '../../core/service/service-client';
import type { ServiceActs } from '../../core/service/service-acts';
import { openGatedConnection } from '../../core/service/erasure-gate';
import type { AuditLog } from '../../core/audit-log';
import type { AuditEntry } from '../../shared/audit';
import type { ErasureAction, ErasureResult } from '../../shared/users';
import type { FetchLike, ServiceClient, ServiceClientOptions } from '../../core/types';
import { PrivacyDeskError } from '../../shared/errors';

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
  /** The answer's status, or 'failed' when no answer came. */
  outcome?: number | 'failed';
}

/**
 * Wraps the real fetch: records every request the client sends and every
 * access token the service issues (so tests can assert none of them leaks),
 * and lets a test rewrite a request before it goes out.
 */
export function recordingFetch(rewrite?: (request: SentRequest) => SentRequest) {
  const sent: SentRequest[] = [];
  const issuedTokens: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    let request: SentRequest = {
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : '',
    };
    if (rewrite) request = rewrite(request);
    sent.push(request);
    let response: Response;
    try {
      response = await globalThis.fetch(request.url, { ...init, method: request.method, headers: request.headers, body: request.body === '' ? undefined : request.body });
    } catch (error) {
      request.outcome = 'failed';
      throw error;
    }
    request.outcome = response.status;
    if (request.url.endsWith('/oauth/token') && response.ok) {
      const json = (await response.clone().json()) as { access_token?: string };
      if (json.access_token) issuedTokens.push(json.access_token);
    }
    return response;
  };
  const apiRequests = () => sent.filter((request) => !request.url.endsWith('/oauth/token'));
  return { fetch, sent, issuedTokens, apiRequests };
}

/** Starts one sandbox for the file (on a free port) and puts it back to the seed before each test. */
export function useSandbox(options: SandboxOptions = {}): { readonly current: RunningSandbox } {
  const holder: { current?: RunningSandbox } = {};
  beforeAll(async () => {
    holder.current = await startSandbox({ users: 60, ...options });
  });
  afterAll(async () => {
    await holder.current?.close();
  });
  beforeEach(async () => {
    await holder.current?.reset();
  });
  return {
    get current(): RunningSandbox {
      if (!holder.current) throw new Error('The sandbox did not start.');
      return holder.current;
    },
  };
}

/**
 * The client with its irreversible acts at hand, for testing how they talk to the service.
 * Only tests may do this: in the app, the acts exist only inside the erasure gate.
 */
export type TestClient = ServiceClient & {
  anonymizeUser(uid: string): Promise<ErasureResult>;
  deleteUser(uid: string): Promise<ErasureResult>;
  eraseUser(action: ErasureAction, uid: string): Promise<ErasureResult>;
  sendLogout: ServiceActs['sendLogout'];
};

/** A connection as the app has it: reads, and the irreversible acts behind the gate (audited in memory). */
export function gateFor(sandbox: RunningSandbox, overrides: Partial<ServiceClientOptions> = {}) {
  const entries: AuditEntry[] = [];
  const audit: AuditLog = {
    path: '(memory)',
    append: async (entry) => void entries.push(entry),
    appendMany: async (batch) => void entries.push(...batch),
    list: async () => [...entries].reverse(),
  };
  return { ...openGatedConnection(sandboxClientOptions(sandbox, overrides), { audit, via: 'cli', operator: 'tester', appVersion: 'test' }), auditEntries: entries };
}

function sandboxClientOptions(sandbox: RunningSandbox, overrides: Partial<ServiceClientOptions>): ServiceClientOptions {
  return {
    profile: { id: 'sandbox', name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName },
    credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret },
    sleep: async () => {},
    ...overrides,
  };
}

export function clientFor(sandbox: RunningSandbox, overrides: Partial<ServiceClientOptions> = {}): TestClient {
  const { client, acts } = connectToService(sandboxClientOptions(sandbox, overrides));
  return {
    ...client,
    anonymizeUser: (uid) => acts.erase('anonymize', uid),
    deleteUser: (uid) => acts.erase('delete', uid),
    eraseUser: (action, uid) => acts.erase(action, uid),
    sendLogout: (uid, options) => acts.sendLogout(uid, options),
  };
}

/** One hand-moved clock, shared by a sandbox and a client when a test needs time to pass: it moves, nobody waits. */
export function testClock(startMs = Date.parse('2026-11-21T12:00:00Z')): { now: () => number; advance: (ms: number) => void } {
  let current = startMs;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}

function isRefused(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
  }
  return false;
}

/**
 * After a sandbox has closed: fetches its address until a fresh connection is refused. Each try on a
 * keep-alive connection the shared pool still holds to the old server fails and drops it, so the next
 * request of a test opens a new connection, as after a real outage.
 */
export async function untilRefused(url: string): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    try {
      await globalThis.fetch(`${url}/sandbox/`);
    } catch (error) {
      if (isRefused(error)) return;
    }
  }
  throw new Error(`${url} still answers or fails otherwise than "connection refused" after 20 tries.`);
}

export interface UserInspection {
  state: 'active' | 'anonymized' | 'deleted';
  user: Record<string, unknown> | null;
  sessionCount: number;
  messagesCount: number;
  votesCount: number;
}

export async function inspectUser(sandbox: RunningSandbox, uid: string): Promise<UserInspection | undefined> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`Sandbox inspection answered ${response.status}`);
  return (await response.json()) as UserInspection;
}

export async function login(sandbox: RunningSandbox, uid: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}/login`, { method: 'POST' });
  if (!response.ok) throw new Error(`Sandbox login answered ${response.status}`);
  return ((await response.json()) as { sessionCount: number }).sessionCount;
}

export async function createUser(sandbox: RunningSandbox, user: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(user) });
  if (response.status !== 201) throw new Error(`Sandbox create user answered ${response.status}: ${await response.text()}`);
}

/** Awaits a promise that must reject with a PrivacyDeskError, and returns it. */
export async function failure(promise: Promise<unknown>): Promise<PrivacyDeskError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PrivacyDeskError) return error;
    throw new Error(`Expected a PrivacyDeskError, got: ${String(error)}`, { cause: error });
  }
  throw new Error('Expected the call to fail, but it succeeded.');
}

/** Every awkward kind of uid (docs/SERVICE-API.md#uids-in-paths), as seeded by the sandbox. */
export const AWKWARD_UIDS = [
  'alice@example.org',
  'bob+news@example.org',
  'jean dupont',
  'zoë.müller',
  '東京ユーザー',
  'team/lead',
  'what?really',
  'hash#tag',
  '100%done',
  'mixed /?#% ü+',
] as const;

/** Asserts nothing secret is in what an error shows. */
export function leaks(error: PrivacyDeskError, secrets: string[]): string[] {
  const shown = `${JSON.stringify(error.toInfo())}\n${error.message}\n${String(error.stack ?? '')}\n${error.cause === undefined ? '' : JSON.stringify(error.cause, Object.getOwnPropertyNames(error.cause as object))}`;
  const found = secrets.filter((secret) => secret !== '' && shown.includes(secret));
  if (/bearer/i.test(shown)) found.push('Bearer');
  return found;
}
