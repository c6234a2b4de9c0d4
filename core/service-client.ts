import { PrivacyDeskError, invalidInput } from '../shared/errors';
import type { ErasureAction, ErasureResult } from '../shared/users';
import type { LogoutOptions, LogoutResult } from '../shared/logout';
import { assertValidUid, normalizeBaseUrl } from './input-problems';
import { encodeUidSegment } from '../shared/uid';
import { DEFAULT_TIMEOUT_MS, readJson, sendRequest, serviceDescription, statusError, type HttpDeps, type HttpRequest } from './http';
import { UserLister } from './list-users';
import { buildLogoutToken, verifyLogoutToken, type LogoutTokenContext } from './logout-token';
import { realSleep } from './retry';
import { sendAuthorized, TokenManager } from './token-manager';
import type { ServiceClient, ServiceClientOptions } from './types';

const DEFAULT_MAX_LIST_RETRIES = 3;
const ACTION_WORDS: Record<ErasureAction, { doing: string; done: string }> = {
  anonymize: { doing: 'anonymising', done: 'anonymised' },
  delete: { doing: 'deleting', done: 'deleted' },
};

/**
 * The one client for a service profile. It holds the credentials and tokens
 * in memory; nothing it returns or throws contains the secret key, an
 * access token or an Authorization header.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const profile = Object.freeze({ ...options.profile, baseUrl: normalizeBaseUrl(options.profile.baseUrl) });
  const { apiKey, apiSecret } = options.credentials;
  if (!apiKey || !apiSecret) throw invalidInput('The profile has no API key or secret key. Enter both in the profile before connecting.');
  const baseUrl = profile.baseUrl;
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw invalidInput('The request timeout must be a positive number of milliseconds.');

  // secrets() runs only once requests are under way, after `tokens` exists.
  const secrets = (): Iterable<string | undefined> => [apiSecret, apiKey, ...tokens.liveTokenValues()];
  const http: HttpDeps = { fetch: fetchImpl, timeoutMs, now, secrets };
  const tokens = new TokenManager(http, { apiKey, apiSecret }, baseUrl);
  const lister = new UserLister({
    http,
    tokens,
    baseUrl,
    apiKey,
    maxRetries: options.maxListRetries ?? DEFAULT_MAX_LIST_RETRIES,
    sleep: options.sleep ?? realSleep,
  });
  const tokenContext: LogoutTokenContext = { apiSecret, apiKey, applicationName: profile.applicationName, now };

  async function eraseUser(action: ErasureAction, uid: string): Promise<ErasureResult> {
    if (action !== 'anonymize' && action !== 'delete') throw invalidInput(`Unknown action “${String(action)}”: use anonymize or delete.`);
    assertValidUid(uid);
    const segment = encodeUidSegment(uid);
    const words = ACTION_WORDS[action];
    const purpose = `${words.doing} user “${uid}”`;
    // Both carry an empty JSON object: API requests are JSON (Part A), and servers that parse
    // JSON bodies strictly refuse a JSON Content-Type with no body at all.
    const route =
      action === 'anonymize'
        ? { method: 'POST' as const, url: `${baseUrl}/api/v1/users/${segment}/anonymize` }
        : { method: 'DELETE' as const, url: `${baseUrl}/api/v1/users/${segment}` };
    const request: HttpRequest = { ...route, body: '{}', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, purpose, irreversible: true };
    // Never retried: only the single 401 token refresh inside sendAuthorized, where the service refused the first attempt.
    const response = await sendAuthorized(http, tokens, 'authentication', request);
    const { status, requestId } = response;
    if (status >= 200 && status < 300) {
      const body = readJson(response);
      if (body.kind === 'json' && body.value && typeof body.value === 'object' && (body.value as { success?: unknown }).success === false) {
        const said = serviceDescription(response, secrets());
        throw new PrivacyDeskError({
          code: 'UNEXPECTED_RESPONSE',
          status,
          requestId,
          message: `The service answered ${status} but reported a failure while ${words.doing} user “${uid}”${said ? `: “${said}”` : ''}. Check the user before trying again.`,
        });
      }
      const result: ErasureResult = { action, uid, status, completedAt: new Date(now()).toISOString() };
      if (requestId !== undefined) result.requestId = requestId;
      return result;
    }
    if (status === 404) {
      throw new PrivacyDeskError({
        code: 'NOT_FOUND',
        status,
        requestId,
        message: `No user with uid “${uid}” exists in ${profile.name} — it may already have been anonymised or deleted. Check the uid against the request.`,
      });
    }
    if (status === 403) {
      throw new PrivacyDeskError({
        code: 'INSUFFICIENT_SCOPE',
        status,
        requestId,
        message: `The service refused ${words.doing} user “${uid}” (403): this API key’s token lacks the “authentication” scope. Nothing was changed. Ask the service’s administrators to grant it.`,
      });
    }
    throw statusError(response, request, secrets());
  }

  async function sendLogout(uid: string, logoutOptions?: LogoutOptions): Promise<LogoutResult> {
    const built = await buildLogoutToken(uid, logoutOptions, tokenContext);
    const request: HttpRequest = {
      method: 'POST',
      url: `${baseUrl}/auth/logout/${encodeURIComponent(profile.applicationName)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ logout_token: built.token }).toString(),
      purpose: `sending the logout for user “${uid}”`,
    };
    // Any HTTP answer, refusals included, is a result for the tester to show; only transport failures throw.
    const response = await sendRequest(http, request);
    const body = readJson(response);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const result: LogoutResult = {
      ...built,
      uid,
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      headers,
      body: body.kind === 'json' ? body.value : response.text,
      elapsedMs: response.elapsedMs,
    };
    if (response.requestId !== undefined) result.requestId = response.requestId;
    return result;
  }

  return {
    profile,
    listUsers: (input) => lister.list(input),
    anonymizeUser: (uid) => eraseUser('anonymize', uid),
    deleteUser: (uid) => eraseUser('delete', uid),
    eraseUser,
    buildLogoutToken: (uid, logoutOptions) => buildLogoutToken(uid, logoutOptions, tokenContext),
    sendLogout,
    verifyLogoutToken: (jwt) => verifyLogoutToken(jwt, tokenContext),
    checkToken: (scope) => {
      if (scope !== 'authentication' && scope !== 'public') return Promise.reject(invalidInput(`Unknown scope “${String(scope)}”: use authentication or public.`));
      return tokens.info(scope);
    },
  };
}
