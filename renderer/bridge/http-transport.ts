import type { BridgeResponse } from '../../shared/contract';
import { errorInfoSchema, PrivacyDeskError, type ErrorInit } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { bridgeCallPath, WEB_HOST_TOKEN_HEADER } from '../../shared/web-host-protocol';
import type { BridgeTransport } from './transport';

export const HOST_TOKEN_STORAGE_KEY = 'privacy-desk-host-token';

/** Shown (translated) when the web host refuses the page: wrong or missing token, or a foreign origin. */
export const NOT_CONNECTED = msg('bridge.notConnected');

/** Shown when the web host cannot be reached at all. */
export const HOST_GONE = msg('bridge.hostGone');

export function isNotConnectedError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { text?: { id?: unknown } }).text?.id === NOT_CONNECTED.id;
}

/**
 * Takes the launch token from the address fragment (`#token=…`), keeps it in
 * sessionStorage and removes it from the address bar, so it is neither
 * bookmarked nor shown over a shoulder. Later reloads read sessionStorage.
 */
export function takeHostToken(win: Window = window): string | null {
  const match = /(?:^#|&)token=([^&]+)/.exec(win.location.hash);
  if (match?.[1]) {
    const token = decodeURIComponent(match[1]);
    win.sessionStorage.setItem(HOST_TOKEN_STORAGE_KEY, token);
    win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
    return token;
  }
  return win.sessionStorage.getItem(HOST_TOKEN_STORAGE_KEY);
}

function failure(error: ErrorInit): BridgeResponse<never> {
  return { ok: false, error: new PrivacyDeskError(error).toInfo() };
}

export function createHttpTransport(options: { token?: string | null; fetch?: typeof fetch } = {}): BridgeTransport {
  const token = options.token !== undefined ? options.token : takeHostToken();
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  return (async (method, input) => {
    if (!token) return failure({ code: 'UNAUTHORIZED', text: NOT_CONNECTED });
    let response: Response;
    try {
      response = await doFetch(bridgeCallPath(method), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [WEB_HOST_TOKEN_HEADER]: token },
        body: JSON.stringify(input ?? {}),
        credentials: 'omit',
      });
    } catch {
      return failure({ code: 'NETWORK', text: HOST_GONE });
    }
    if (response.status === 401 || response.status === 403) {
      return failure({ code: 'UNAUTHORIZED', status: response.status, text: NOT_CONNECTED });
    }
    if (response.status === 404) {
      return failure({
        code: 'INTERNAL',
        status: 404,
        text: msg('bridge.hostUnknownAction', { method }),
      });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      body = undefined;
    }
    if (isBridgeResponse(body)) return body;
    return failure({
      code: 'UNEXPECTED_RESPONSE',
      status: response.status,
      text: msg('bridge.hostUnusable', { status: response.status }),
    });
  }) as BridgeTransport;
}

function isBridgeResponse(body: unknown): body is BridgeResponse<never> {
  if (typeof body !== 'object' || body === null) return false;
  const candidate = body as { ok?: unknown; value?: unknown; error?: unknown };
  if (candidate.ok === true) return 'value' in candidate;
  return candidate.ok === false && errorInfoSchema.safeParse(candidate.error).success;
}
