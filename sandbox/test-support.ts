/** Helpers for the sandbox's own tests: real HTTP against a running sandbox. */
import type { RunningSandbox } from './types';

export const AWKWARD = [
  'alice@example.org', 'bob+news@example.org', 'jean dupont', 'zoë.müller', '東京ユーザー',
  'team/lead', 'what?really', 'hash#tag', '100%done', 'mixed /?#% ü+',
] as const;

export async function requestToken(
  sandbox: RunningSandbox,
  scope: string | undefined,
  overrides: Record<string, string> = {},
): Promise<Response> {
  const form: Record<string, string> = {
    grant_type: 'client_credentials',
    client_id: sandbox.credentials.apiKey,
    client_secret: sandbox.credentials.apiSecret,
    ...overrides,
  };
  if (scope !== undefined) form.scope = scope;
  return fetch(`${sandbox.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
}

export async function tokenFor(sandbox: RunningSandbox, scope: 'authentication' | 'public'): Promise<string> {
  const response = await requestToken(sandbox, scope);
  if (response.status !== 200) throw new Error(`token request failed with ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** An API call the way the client sends it: JSON content type, bearer token, uid percent-encoded. */
export function api(sandbox: RunningSandbox, method: string, path: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return fetch(`${sandbox.url}${path}`, { method, headers });
}

export const userPath = (uid: string): string => `/api/v1/users/${encodeURIComponent(uid)}`;

export async function inspectUid(sandbox: RunningSandbox, uid: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function login(sandbox: RunningSandbox, uid: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}/login`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`login failed with ${response.status}`);
  return ((await response.json()) as { sessionCount: number }).sessionCount;
}

export async function listPage(sandbox: RunningSandbox, query: string): Promise<Response> {
  return fetch(`${sandbox.url}/api/v1/users?api_key=${encodeURIComponent(sandbox.credentials.apiKey)}&${query}`);
}
