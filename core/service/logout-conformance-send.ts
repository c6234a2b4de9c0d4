import { isPrivacyDeskError, PrivacyDeskError, invalidInput } from '../../shared/errors';
import type { LogoutResult } from '../../shared/logout';
import { isLocalBaseUrl } from '../../shared/profile';
import { msg } from '../../shared/messages';
import { normalizeBaseUrl } from '../input-problems';
import type { ServiceClientOptions } from '../types';
import { DEFAULT_TIMEOUT_MS, readJson, sendRequest, serviceDescription, type HttpDeps } from './http';
import { logoutRefusal } from './logout-outcome';
import type { LogoutTokenContext } from './logout-token';
import { fetchSandboxUserState, simulateSandboxLogin } from './sandbox-inspection';

/** What one conformance send came to, before any judgement: the answer's parts (shared/logout.ts LogoutReply). */
export interface ConformanceReply {
  outcome: LogoutResult['outcome'];
  errorCode?: LogoutResult['errorCode'];
  status?: number;
  body?: unknown;
  requestId?: string;
  serviceSaid?: string;
  /** A 429's Retry-After, in seconds, when it gave one. */
  retryAfterSeconds?: number;
}

/** The sessions of a uid on a sandbox: opened before a case, counted after it. */
export interface SandboxSessions {
  /** The count after opening one; undefined when the sandbox has no active user with this uid. */
  open(uid: string): Promise<number | undefined>;
  /** The count now; undefined when it cannot be read. */
  count(uid: string): Promise<number | undefined>;
}

/**
 * The conformance run's own door to the service, held by the erasure gate only: it signs crafted tokens with the
 * profile's secret and posts them to the logout route. Nothing it returns holds a token, a secret or a header.
 */
export interface ConformanceSender {
  context: LogoutTokenContext;
  /** Only for a profile on this computer: sandbox routes are never called on live data. */
  sessions?: SandboxSessions;
  send(uid: string, token: string): Promise<ConformanceReply>;
  /** How the run waits out a 429 before sending the token again (tests move a virtual clock instead). */
  pause(ms: number): Promise<void>;
}

export function createConformanceSender(options: ServiceClientOptions): ConformanceSender {
  const { apiKey, apiSecret } = options.credentials;
  if (!apiKey || !apiSecret) throw invalidInput(msg('client.noKeys'));
  const baseUrl = normalizeBaseUrl(options.profile.baseUrl);
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const http: HttpDeps = { fetch: fetchImpl, timeoutMs, now, secrets: () => [apiSecret, apiKey] };
  const context: LogoutTokenContext = { apiSecret, apiKey, applicationName: options.profile.applicationName, now };

  async function send(uid: string, token: string): Promise<ConformanceReply> {
    let response;
    try {
      response = await sendRequest(http, {
        method: 'POST',
        url: `${baseUrl}/auth/logout/${encodeURIComponent(options.profile.applicationName)}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: new URLSearchParams({ logout_token: token }).toString(),
        purpose: msg('purpose.sendLogout', { uid }),
      });
    } catch (error) {
      if (!isPrivacyDeskError(error)) throw error;
      return { outcome: error.outcome, errorCode: error.code, ...(error.status !== undefined ? { status: error.status } : {}) };
    }
    const json = readJson(response);
    const body = json.kind === 'json' ? json.value : response.text;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const ok = response.status >= 200 && response.status < 300;
    // logoutRefusal reads the answer only; the token's fields are not part of what it judges.
    const refusal = logoutRefusal({ token: '', header: {}, claims: {}, uid, outcome: 'done', status: response.status, ok, headers, body, elapsedMs: response.elapsedMs }, now());
    const said = ok ? undefined : serviceDescription(response, http.secrets());
    return {
      outcome: refusal ? refusal.outcome : 'done',
      ...(refusal ? { errorCode: refusal.code } : {}),
      status: response.status,
      body,
      ...(response.requestId !== undefined ? { requestId: response.requestId } : {}),
      ...(said !== undefined ? { serviceSaid: said } : {}),
      ...(refusal?.retryAfterSeconds !== undefined ? { retryAfterSeconds: refusal.retryAfterSeconds } : {}),
    };
  }

  const sessions: SandboxSessions | undefined = isLocalBaseUrl(baseUrl)
    ? {
        async open(uid) {
          try {
            return (await simulateSandboxLogin(fetchImpl, baseUrl, uid, timeoutMs, now)).sessionCount;
          } catch (error) {
            if (error instanceof PrivacyDeskError && error.code === 'NOT_FOUND') return undefined;
            throw error;
          }
        },
        async count(uid) {
          const state = await fetchSandboxUserState(fetchImpl, baseUrl, uid, timeoutMs, now).catch(() => null);
          return state ? state.sessionCount : undefined;
        },
      }
    : undefined;

  const pause = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return { context, send, pause, ...(sessions ? { sessions } : {}) };
}
