import type { SandboxUserState } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { encodeUidSegment } from '../../shared/uid';
import { sendRequest, type HttpDeps } from './http';
import type { FetchLike } from '../types';

/**
 * Reads a uid's state from the sandbox's inspection route (GET /sandbox/users/{uid}).
 * The uid is validated by the caller first (a broken one is INVALID_INPUT, nothing sent);
 * failures are those of any request (core/service/http.ts): TIMEOUT, NETWORK refused or cut,
 * TLS, a redirect or an oversized answer refused. A 404 (not a sandbox, or a uid it never
 * had) or any other refusal gives null: the window then simply shows no sandbox state.
 */
export async function fetchSandboxUserState(fetchFn: FetchLike, baseUrl: string, uid: string, timeoutMs: number, now: () => number = Date.now): Promise<SandboxUserState | null> {
  const http: HttpDeps = { fetch: fetchFn, timeoutMs, now, secrets: () => [] };
  const response = await sendRequest(http, {
    method: 'GET',
    url: `${baseUrl}/sandbox/users/${encodeUidSegment(uid)}`,
    headers: { Accept: 'application/json' },
    purpose: msg('purpose.readSandboxUser', { uid }),
  });
  if (response.status < 200 || response.status >= 300) return null;
  let body: { state?: unknown; sessionCount?: unknown; messagesCount?: unknown; votesCount?: unknown } | null;
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch {
    return null;
  }
  if (!body || typeof body.state !== 'string') return null;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  return {
    exists: body.state !== 'deleted',
    anonymized: body.state === 'anonymized',
    sessionCount: count(body.sessionCount),
    messagesCount: count(body.messagesCount),
    votesCount: count(body.votesCount),
  };
}

/**
 * Opens one session for a uid on the sandbox (POST /sandbox/users/{uid}/login), so a
 * logout test can show sessions ending. Only ever called for a loopback profile (Desk
 * checks). A uid the sandbox does not have is NOT_FOUND; any other refusal means the
 * address is not a sandbox that simulates logins.
 */
export async function simulateSandboxLogin(fetchFn: FetchLike, baseUrl: string, uid: string, timeoutMs: number, now: () => number = Date.now): Promise<{ sessionCount: number }> {
  const http: HttpDeps = { fetch: fetchFn, timeoutMs, now, secrets: () => [] };
  const response = await sendRequest(http, {
    method: 'POST',
    url: `${baseUrl}/sandbox/users/${encodeUidSegment(uid)}/login`,
    headers: { Accept: 'application/json' },
    purpose: msg('purpose.simulateLogin', { uid }),
  });
  if (response.status === 404) {
    throw new PrivacyDeskError({ code: 'NOT_FOUND', status: 404, outcome: 'refused', text: msg('sandbox.noSuchUser', { uid }) });
  }
  let sessionCount: unknown;
  try {
    sessionCount = (JSON.parse(response.text) as { sessionCount?: unknown } | null)?.sessionCount;
  } catch {
    sessionCount = undefined;
  }
  if (response.status < 200 || response.status >= 300 || typeof sessionCount !== 'number') {
    throw new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', status: response.status, outcome: 'unknown', text: msg('sandbox.notSandbox', { status: response.status }) });
  }
  return { sessionCount };
}
