import { PrivacyDeskError } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { msg, sizeText } from '../../shared/messages';
import type { FetchLike } from '../types';
import { excerpt, redactSecrets } from './redact';
import { parseRetryAfter } from '../retry';
import { MAX_JSON_DEPTH, parseBoundedJson, TOO_DEEP } from '../bounded-json';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The most of an answer's body we read: the service's answers are small JSON documents, a users page the largest. */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
export const LIST_MAX_BODY_BYTES = 2 * 1024 * 1024;

export interface HttpDeps {
  fetch: FetchLike;
  timeoutMs: number;
  now: () => number;
  /** Every secret this client knows (secret key, API key, live tokens): cut out of any service text we quote. */
  secrets: () => Iterable<string | undefined>;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** What we were doing, for messages (a purpose.* phrase: "listing users (page 2)", "anonymising user “x”"). */
  purpose: MessageText;
  /** Irreversible acts: a failure after the request may have reached the service leaves the outcome unknown. */
  irreversible?: boolean;
  /** A larger body is refused unread (UNEXPECTED_RESPONSE); default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** A shorter timeout than the client's, when a retried call's time budget is nearly spent. */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  requestId?: string;
  elapsedMs: number;
  host: string;
}

export function requestIdOf(headers: Headers): string | undefined {
  return headers.get('x-request-id') ?? undefined;
}

/**
 * Sends one request with a timeout covering the whole exchange (headers and
 * body). Any failure to get an answer becomes NETWORK, TIMEOUT or TLS; an
 * HTTP answer, whatever its status, is returned for the caller to judge.
 */
export async function sendRequest(deps: HttpDeps, request: HttpRequest): Promise<HttpResponse> {
  const controller = new AbortController();
  const timeoutMs = Math.max(1, Math.min(deps.timeoutMs, request.timeoutMs ?? Infinity));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const started = deps.now();
  try {
    const response = await deps.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
      // A redirect would resend credentials elsewhere or turn a POST into a GET: report it instead.
      redirect: 'manual',
    });
    const text = await readBodyWithin(response, request.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, request);
    const answer = { status: response.status, headers: response.headers, text, requestId: requestIdOf(response.headers), elapsedMs: deps.now() - started };
    // Read only for messages: parsing the URL on every answer cost more than the rest of this function.
    return { ...answer, get host() { return hostOf(request.url); } };
  } catch (error) {
    if (timedOut) throw timeoutError(hostOf(request.url), timeoutMs, request);
    if (error instanceof PrivacyDeskError) throw error;
    if (isCancelledRedirect(error)) throw redirectError({ request });
    throw transportError(hostOf(request.url), error, request);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads the body as UTF-8 text, refusing one larger than `maxBytes` without reading the
 * rest (a declared Content-Length is refused before any of it is read).
 */
async function readBodyWithin(response: Response, maxBytes: number, request: HttpRequest): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw bodyTooLargeError(response, maxBytes, request);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  // Decoded once at the end (the body is bounded): a streaming decode per chunk cost more than the chunks themselves.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw bodyTooLargeError(response, maxBytes, request);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : concatBytes(chunks, size));
}

function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

function bodyTooLargeError(response: Response, maxBytes: number, request: HttpRequest): PrivacyDeskError {
  const { status } = response;
  // A 2xx (or 5xx) to an act may mean it was done: too big to read is not a refusal.
  const refused = status >= 300 && status < 500;
  const id = refused ? 'http.tooLargeRefused' : request.irreversible ? 'http.tooLargeAct' : 'http.tooLarge';
  return new PrivacyDeskError({
    code: 'UNEXPECTED_RESPONSE',
    outcome: refused ? 'refused' : 'unknown',
    status,
    requestId: requestIdOf(response.headers),
    text: msg(id, { status, purpose: request.purpose, limit: sizeText(maxBytes) }),
  });
}

/**
 * Electron's net.fetch with `redirect: 'manual'` rejects with "Redirect was cancelled" instead
 * of returning the 3xx (electron/electron#43715): the service did answer, with a redirect we do not follow.
 */
export function isCancelledRedirect(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const { message } = current as { message?: unknown };
    if (typeof message === 'string' && /\bredirect was cancell?ed\b/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function timeoutError(host: string, timeoutMs: number, request: HttpRequest): PrivacyDeskError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new PrivacyDeskError({ code: 'TIMEOUT', text: msg(request.irreversible ? 'http.timeoutAct' : 'http.timeout', { host, seconds, purpose: request.purpose }) });
}

interface TransportFailure {
  kind: 'tls' | 'network';
  /** A reason.* phrase; the system's own code (ECONNREFUSED, net::ERR_…) is kept apart, quoted as the system's. */
  reason: MessageText;
  systemCode?: string;
  /** True when the failure happened before the request could reach the service. */
  notSent: boolean;
}

const NOT_SENT_CODES: Record<string, MessageText> = {
  ECONNREFUSED: msg('reason.connectionRefused'),
  ENOTFOUND: msg('reason.hostNotFound'),
  EAI_AGAIN: msg('reason.hostLookupFailed'),
  EHOSTUNREACH: msg('reason.hostUnreachable'),
  ENETUNREACH: msg('reason.networkUnreachable'),
  ERR_CONNECTION_REFUSED: msg('reason.connectionRefused'),
  ERR_NAME_NOT_RESOLVED: msg('reason.hostNotFound'),
  ERR_INTERNET_DISCONNECTED: msg('reason.offline'),
  ERR_ADDRESS_UNREACHABLE: msg('reason.hostUnreachable'),
};
const MID_FLIGHT_CODES: Record<string, MessageText> = {
  ECONNRESET: msg('reason.connectionCut'),
  EPIPE: msg('reason.connectionCut'),
  ETIMEDOUT: msg('reason.connectionTimedOut'),
  UND_ERR_SOCKET: msg('reason.closedBeforeAnswer'),
  ERR_CONNECTION_RESET: msg('reason.connectionCut'),
  ERR_CONNECTION_CLOSED: msg('reason.closedBeforeAnswer'),
  ERR_EMPTY_RESPONSE: msg('reason.closedBeforeAnswer'),
};
const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|ERR_CERT_|SSL_)|^(UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)$/;

/** Collects error codes along the cause chain: Node puts them on `cause.code`, Electron in the message (`net::ERR_…`). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof message === 'string') {
      for (const match of message.matchAll(/net::([A-Z_]+)/g)) if (match[1]) codes.push(match[1]);
      for (const match of message.matchAll(/\b(E[A-Z]{3,}|UND_ERR_[A-Z_]+)\b/g)) if (match[1]) codes.push(match[1]);
    }
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

export function classifyTransportError(error: unknown): TransportFailure {
  const codes = errorCodes(error);
  const tls = codes.find((code) => TLS_CODE.test(code));
  if (tls) return { kind: 'tls', reason: msg('reason.certificate'), systemCode: tls, notSent: true };
  for (const code of codes) {
    const notSent = NOT_SENT_CODES[code];
    if (notSent) return { kind: 'network', reason: notSent, systemCode: code, notSent: true };
  }
  for (const code of codes) {
    const midFlight = MID_FLIGHT_CODES[code];
    if (midFlight) return { kind: 'network', reason: midFlight, systemCode: code, notSent: false };
  }
  return { kind: 'network', reason: msg('reason.failedBeforeAnswer'), notSent: false };
}

function transportError(host: string, error: unknown, request: HttpRequest): PrivacyDeskError {
  const failure = classifyTransportError(error);
  // The original error is deliberately not attached as `cause`: nothing we did not write ourselves leaves the core.
  // Only its code is quoted (the system's, untranslated); never its message ("fetch failed").
  const quote = failure.systemCode ? { quote: { from: 'system' as const, text: failure.systemCode } } : {};
  const { reason } = failure;
  if (failure.kind === 'tls') return new PrivacyDeskError({ code: 'TLS', outcome: 'not-sent', text: msg('http.tls', { host, reason }), ...quote });
  // "Could not reach" only when nothing left: a cut mid-flight may have reached the service.
  const text = failure.notSent
    ? msg(request.irreversible ? 'http.unreachableAct' : 'http.unreachable', { host, reason })
    : request.irreversible
      ? msg('http.cutAct', { host, reason, purpose: request.purpose })
      : msg('http.cut', { host, reason });
  return new PrivacyDeskError({ code: 'NETWORK', outcome: failure.notSent ? 'not-sent' : 'unknown', text, ...quote });
}

/** `text`: a body that could not be read as JSON; `problem` says why ("not JSON", "nested more than 64 levels deep"). */
export type JsonBody = { kind: 'empty' } | { kind: 'json'; value: unknown } | { kind: 'text'; problem: string };

/** The body as JSON, with its nesting bounded (core/bounded-json.ts): a hostile answer cannot overflow the stack later. */
export function readJson(response: HttpResponse): JsonBody {
  if (response.text.trim() === '') return { kind: 'empty' };
  const parsed = parseBoundedJson(response.text);
  return parsed.ok ? { kind: 'json', value: parsed.value } : { kind: 'text', problem: parsed.problem };
}

const FAILURE_STATES = new Set(['error', 'fail', 'failed', 'failure']);
const failureStatus = (value: unknown): number | undefined => {
  const number = typeof value === 'string' && /^\d{3}$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 400 && number <= 599 ? number : undefined;
};
const present = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== false && value !== '' && !(Array.isArray(value) && value.length === 0) && !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/**
 * Which sign in a 2xx answer's JSON says the request failed (`"success": false`, `an "error" member`), or undefined when it
 * does not. Some services put their real status in the body and always answer 200, so a 2xx is a success only when
 * its body does not say otherwise (docs/SERVICE-API.md#bodies-that-say-failure): a top-level object with
 * "success": false or "ok": false; an "error" or "errors" member that holds something; "status", "statusCode" or
 * "code" from 400 to 599 (a number or its digits); or "status" "error", "fail", "failed" or "failure".
 */
export function failureInBody(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  if (body.success === false) return '"success": false';
  if (body.ok === false) return '"ok": false';
  if (present(body.error)) return 'an "error" member';
  if (present(body.errors)) return 'an "errors" member';
  for (const field of ['status', 'statusCode', 'code'] as const) {
    const status = failureStatus(body[field]);
    if (status !== undefined) return `"${field}": ${status}`;
  }
  if (typeof body.status === 'string' && FAILURE_STATES.has(body.status.trim().toLowerCase())) return `"status": "${body.status.trim().toLowerCase()}"`;
  return undefined;
}

/** The service's own words about a failure (error_description, error, message), with any secret cut out. */
export function serviceDescription(response: HttpResponse, secrets: Iterable<string | undefined>): string | undefined {
  const body = readJson(response);
  if (body.kind !== 'json' || !body.value || typeof body.value !== 'object') return undefined;
  const record = body.value as Record<string, unknown>;
  // JSON:API and similar put their words in the first of "errors".
  const first = Array.isArray(record.errors) ? (record.errors[0] as unknown) : undefined;
  const fromErrors = typeof first === 'object' && first !== null ? [(first as Record<string, unknown>).detail, (first as Record<string, unknown>).message, (first as Record<string, unknown>).title] : [first];
  const text = [record.error_description, record.error, record.message, ...fromErrors].find((value) => typeof value === 'string' && value.trim() !== '');
  return typeof text === 'string' ? excerpt(redactSecrets(text, secrets)) : undefined;
}

/**
 * The error for an HTTP answer the caller has no specific meaning for:
 * redirects, 429, 5xx and anything else unexpected. Always carries status and requestId.
 */
/** `nowMs` is the client's clock, for a Retry-After given as a date. */
export function statusError(response: HttpResponse, request: HttpRequest, secrets: Iterable<string | undefined>, nowMs: number): PrivacyDeskError {
  const { status, requestId } = response;
  const said = serviceDescription(response, secrets);
  const quote = said ? { quote: { from: 'service' as const, text: said } } : {};
  const { purpose } = request;
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), nowMs);
    const wait = retryAfterSeconds === undefined ? msg('wait.little') : msg('wait.seconds', { seconds: retryAfterSeconds });
    return new PrivacyDeskError({ code: 'RATE_LIMITED', status, requestId, retryAfterSeconds, text: msg(request.irreversible ? 'http.rateLimitedAct' : 'http.rateLimited', { purpose, wait }) });
  }
  if (status >= 500) {
    return new PrivacyDeskError({ code: 'SERVER_ERROR', status, requestId, text: msg(request.irreversible ? 'http.serverErrorAct' : 'http.serverError', { status, purpose }), ...quote });
  }
  if (status >= 300 && status < 400) return redirectError({ request, status, requestId, location: response.headers.get('location') });
  return new PrivacyDeskError({
    code: 'UNEXPECTED_RESPONSE',
    // A 4xx is the service refusing; anything else unexpected may have been acted on.
    outcome: status >= 400 && status < 500 ? 'refused' : 'unknown',
    status,
    requestId,
    text: msg('http.unexpectedStatus', { status, purpose }),
    ...quote,
  });
}

/**
 * Redirects are never followed (they would resend credentials elsewhere or turn a POST into a GET):
 * the service answered, and nothing went to the new address. Node's fetch gives status and Location;
 * Electron's net.fetch only says that a redirect was cancelled.
 */
function redirectError(redirect: { request: HttpRequest; status?: number; requestId?: string; location?: string | null }): PrivacyDeskError {
  const { request, status, requestId } = redirect;
  const location = safeLocation(redirect.location ?? null);
  const { purpose } = request;
  const act = request.irreversible === true;
  const text =
    status === undefined
      ? msg(act ? 'http.redirectUnsaidAct' : 'http.redirectUnsaid', { purpose })
      : location
        ? msg(act ? 'http.redirectToAct' : 'http.redirectTo', { status, location, purpose })
        : msg(act ? 'http.redirectAct' : 'http.redirect', { status, purpose });
  return new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', outcome: 'refused', status, requestId, text });
}

/** A redirect target without its query or fragment (those could carry anything). */
export function safeLocation(location: string | null): string | undefined {
  if (!location) return undefined;
  try {
    const url = new URL(location, 'http://relative.invalid');
    return url.origin === 'http://relative.invalid' ? url.pathname : `${url.origin}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** `what`: a body.* phrase saying why the answer could not be used; `said`: the service's own words, secrets already cut out. */
export function unexpectedBody(response: HttpResponse, purpose: MessageText, what: MessageText, said?: string): PrivacyDeskError {
  const quote = said ? { quote: { from: 'service' as const, text: said } } : {};
  return new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', status: response.status, requestId: response.requestId, text: msg('http.unreadable', { purpose, what }), ...quote });
}

/** Why a body read as `text` (readJson) is not JSON Privacy Desk reads, as a body.* phrase. */
export function unreadableBodyText(problem: string): MessageText {
  return problem === TOO_DEEP ? msg('body.nestedTooDeep', { levels: MAX_JSON_DEPTH }) : msg('body.notJson');
}
