import { PrivacyDeskError, isPrivacyDeskError, type Outcome } from '../../shared/errors';
import type { Credentials } from '../../shared/profile';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { readJson, sendRequest, serviceDescription, statusError, unexpectedBody, type HttpDeps, type HttpRequest, type HttpResponse } from './http';
import type { Scope, TokenInfo } from '../types';
import { asSettled, realSleep, withRetry } from '../retry';

/** If the service's created_at is this far from our clock, trust our clock instead. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
const REFRESH_MARGIN_MS = 60_000;
/** Tokens live two hours (docs/SERVICE-API.md#token-lifetime); used only if the service leaves expires_in out. */
const DEFAULT_LIFETIME_S = 7200;

export interface AccessToken {
  /** The bearer credential: stays inside the core, never logged, returned or put in a message. */
  readonly value: string;
  readonly scope: Scope;
  readonly expiresAt: number;
  readonly refreshAt: number;
}

/**
 * How a token request is repeated: like every read (core/retry.ts), on a cut connection, a timeout, a 5xx or a
 * 429 (after its Retry-After), within a budget. Asking for a token changes nothing on the service, so one
 * transient answer never refuses an act or a batch.
 */
export interface TokenRetry {
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
  /** The most all attempts and waits may take together (default: twice the request timeout, as a page of the list). */
  budgetMs?: number;
}

const DEFAULT_TOKEN_RETRY: TokenRetry = { maxRetries: 3, sleep: realSleep };

export interface TokenLease {
  token: AccessToken;
  /** False when the token was minted for this very call: a 401 on it means a refresh will not help. */
  reused: boolean;
}

/**
 * Obtains and caches one client-credentials token per scope, in memory only.
 * Concurrent callers share one request per scope (single flight).
 */
export class TokenManager {
  readonly #tokens = new Map<Scope, AccessToken>();
  readonly #inFlight = new Map<Scope, Promise<AccessToken>>();
  readonly #deps: HttpDeps;
  readonly #credentials: Credentials;
  readonly #tokenUrl: string;
  readonly #retry: TokenRetry;

  constructor(deps: HttpDeps, credentials: Credentials, baseUrl: string, retry: TokenRetry = DEFAULT_TOKEN_RETRY) {
    this.#deps = deps;
    this.#credentials = credentials;
    this.#tokenUrl = `${baseUrl}/oauth/token`;
    this.#retry = retry;
  }

  /** Live token values, so error text quoting the service can be scrubbed of them. */
  *liveTokenValues(): Iterable<string> {
    for (const token of this.#tokens.values()) yield token.value;
  }

  async lease(scope: Scope): Promise<TokenLease> {
    const cached = this.#tokens.get(scope);
    if (cached && this.#deps.now() < cached.refreshAt) return { token: cached, reused: true };
    let pending = this.#inFlight.get(scope);
    if (!pending) {
      pending = this.#request(scope).finally(() => this.#inFlight.delete(scope));
      this.#inFlight.set(scope, pending);
    }
    return { token: await pending, reused: false };
  }

  async info(scope: Scope): Promise<TokenInfo> {
    const { token } = await this.lease(scope);
    return { scope, expiresAt: token.expiresAt };
  }

  /** Drops a token the service refused, unless another caller already replaced it. */
  drop(token: AccessToken): void {
    if (this.#tokens.get(token.scope) === token) this.#tokens.delete(token.scope);
  }

  clear(): void {
    this.#tokens.clear();
  }

  async #request(scope: Scope): Promise<AccessToken> {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.#credentials.apiKey,
      client_secret: this.#credentials.apiSecret,
      scope,
    }).toString();
    const purpose = msg('purpose.getToken', { scope });
    const request = { method: 'POST' as const, url: this.#tokenUrl, purpose, body, headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' } };
    const { maxRetries, sleep, budgetMs = this.#deps.timeoutMs * 2 } = this.#retry;
    const { response, receivedAt } = await withRetry(
      async () => {
        const answer = await sendRequest(this.#deps, request);
        if (answer.status !== 200) throw this.#tokenError(answer, scope, purpose, request);
        return { response: answer, receivedAt: this.#deps.now() };
      },
      { maxRetries, sleep, budget: { totalMs: budgetMs, now: this.#deps.now, what: 'token' } },
    ).catch((error: unknown) => {
      // Asked again as often as a token is: a read that needed it gives up too, rather than asking again in turn.
      throw typeof error === 'object' && error !== null ? asSettled(error) : error;
    });
    const token = this.#parseToken(response, scope, receivedAt, purpose);
    this.#tokens.set(scope, token);
    return token;
  }

  #parseToken(response: HttpResponse, scope: Scope, receivedAt: number, purpose: MessageText): AccessToken {
    const body = readJson(response);
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object') throw unexpectedBody(response, purpose, msg('body.notObject'));
    const json = body.value as Record<string, unknown>;
    if (typeof json.access_token !== 'string' || json.access_token === '') throw unexpectedBody(response, purpose, msg('body.noAccessToken'));
    const lifetimeS = positiveNumber(json.expires_in) ?? DEFAULT_LIFETIME_S;
    const createdAtMs = positiveNumber(json.created_at) === undefined ? undefined : Number(json.created_at) * 1000;
    // A missing or implausible created_at (clock skew, wrong unit) must not make a token look expired or immortal.
    const issuedAt = createdAtMs !== undefined && Math.abs(createdAtMs - receivedAt) <= MAX_CLOCK_SKEW_MS ? createdAtMs : receivedAt;
    const lifetimeMs = lifetimeS * 1000;
    const expiresAt = issuedAt + lifetimeMs;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetimeMs / 10);
    return { value: json.access_token, scope, expiresAt, refreshAt: expiresAt - margin };
  }

  #tokenError(response: HttpResponse, scope: Scope, purpose: MessageText, request: HttpRequest): PrivacyDeskError {
    const { status, requestId } = response;
    const secrets = [this.#credentials.apiKey, this.#credentials.apiSecret];
    const body = readJson(response);
    const errorName = body.kind === 'json' && body.value && typeof body.value === 'object' ? (body.value as { error?: unknown }).error : undefined;
    if (status === 401 || errorName === 'invalid_client') {
      return new PrivacyDeskError({ code: 'INVALID_CREDENTIALS', status, requestId, text: msg('token.keysRefused') });
    }
    if (status === 400 && errorName === 'invalid_scope') {
      return new PrivacyDeskError({
        code: 'INSUFFICIENT_SCOPE',
        status,
        requestId,
        text: msg('token.scopeRefused', { scope }),
      });
    }
    if (status === 400 || status === 403) {
      // The OAuth error name and description are the service's words: quoted, never translated.
      const said = [typeof errorName === 'string' ? errorName : undefined, serviceDescription(response, secrets)].filter(Boolean).join(': ');
      return new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', status, requestId, text: msg('token.requestRefused', { status }), ...(said ? { quote: { from: 'service', text: said } } : {}) });
    }
    return statusError(response, request, secrets, this.#deps.now());
  }
}

function positiveNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined;
}

/**
 * Sends a request with a bearer token of the scope. A 401 on a reused token
 * means it was revoked or expired early: drop it, get a new one and repeat
 * ONCE (the service refused the first attempt, so nothing happened). A 401
 * on a brand-new token, or a second 401, is UNAUTHORIZED. Every other
 * status is returned for the caller to judge.
 */
export async function sendAuthorized(deps: HttpDeps, tokens: TokenManager, scope: Scope, request: HttpRequest): Promise<HttpResponse> {
  // A token that cannot be had means the request itself never left: not-sent, whatever the token call's own outcome.
  const first = await leaseOr(tokens, scope, 'not-sent');
  const response = await sendRequest(deps, withBearer(request, first.token));
  if (response.status !== 401) return response;
  tokens.drop(first.token);
  if (!first.reused) throw unauthorized(response, request);
  // The service refused the first attempt (401), so a failed renewal leaves nothing changed.
  const second = await leaseOr(tokens, scope, 'refused');
  const retried = await sendRequest(deps, withBearer(request, second.token));
  if (retried.status !== 401) return retried;
  tokens.drop(second.token);
  throw unauthorized(retried, request);
}

async function leaseOr(tokens: TokenManager, scope: Scope, outcome: Outcome): ReturnType<TokenManager['lease']> {
  try {
    return await tokens.lease(scope);
  } catch (error) {
    throw isPrivacyDeskError(error) ? error.withOutcome(outcome) : error;
  }
}

function withBearer(request: HttpRequest, token: AccessToken): HttpRequest {
  return { ...request, headers: { ...request.headers, Authorization: `Bearer ${token.value}` } };
}

function unauthorized(response: HttpResponse, request: HttpRequest): PrivacyDeskError {
  // WWW-Authenticate carries the service's reason ("The access token expired"): safe, and useful to show.
  const header = response.headers.get('www-authenticate') ?? '';
  const reason = /error_description="([^"]{1,200})"/.exec(header)?.[1];
  return new PrivacyDeskError({
    code: 'UNAUTHORIZED',
    status: response.status,
    requestId: response.requestId,
    text: msg(request.irreversible ? 'token.unauthorizedAct' : 'token.unauthorized', { purpose: request.purpose }),
    ...(reason ? { quote: { from: 'service', text: reason } } : {}),
  });
}
