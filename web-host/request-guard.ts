import { createHash, timingSafeEqual } from 'node:crypto';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { WEB_HOST_TOKEN_HEADER } from '../shared/web-host-protocol';

/** Header names as Node gives them (lower case). */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** Node gives header names in lower case. */
const TOKEN_HEADER = WEB_HOST_TOKEN_HEADER.toLowerCase();

export interface Refusal {
  status: 401 | 403 | 415;
  code: 'UNAUTHORIZED' | 'INVALID_INPUT';
  /** Why, as a message the window words in its language. */
  text: MessageText;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * DNS-rebinding guard: a page on evil.example whose name now resolves to
 * 127.0.0.1 still sends `Host: evil.example`. Only our own loopback names pass.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const normalized = host.toLowerCase();
  return normalized === `127.0.0.1:${port}` || normalized === `localhost:${port}`;
}

/** The origins our own page can have: the two allowed Host names. */
export function ownOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** Constant-time comparison; hashing first makes the lengths equal so length leaks nothing either. */
export function tokensMatch(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Who may use the bridge at all (calls and the event stream), besides the Host
 * header: not a cross-site request, our own Origin when one is sent, and the
 * per-launch token. Returns null when the caller is our own page.
 */
export function callerRefusal(headers: RequestHeaders, port: number, token: string): Refusal | null {
  const fetchSite = single(headers['sec-fetch-site'])?.toLowerCase();
  if (fetchSite === 'cross-site') {
    return { status: 403, code: 'UNAUTHORIZED', text: msg('bridge.otherSite') };
  }
  const origin = single(headers.origin);
  if (origin !== undefined) {
    const host = single(headers.host)?.toLowerCase();
    // The Origin must be the very address the page was loaded from.
    if (!host || origin.toLowerCase() !== `http://${host}` || !ownOrigins(port).includes(origin.toLowerCase())) {
      return { status: 403, code: 'UNAUTHORIZED', text: msg('bridge.foreignPage') };
    }
  }
  if (!tokensMatch(single(headers[TOKEN_HEADER]), token)) {
    return { status: 401, code: 'UNAUTHORIZED', text: msg('bridge.notConnected') };
  }
  return null;
}

/**
 * A bridge call: our own page (callerRefusal) sending a JSON body, which a
 * form post cannot carry, so no CSRF through forms. Returns null when the call may proceed.
 */
export function bridgeRequestRefusal(headers: RequestHeaders, port: number, token: string): Refusal | null {
  const refusal = callerRefusal(headers, port, token);
  if (refusal) return refusal;
  const contentType = single(headers['content-type'])?.toLowerCase() ?? '';
  if (contentType.split(';')[0]?.trim() !== 'application/json') {
    return { status: 415, code: 'INVALID_INPUT', text: msg('bridge.jsonRequired') };
  }
  return null;
}
