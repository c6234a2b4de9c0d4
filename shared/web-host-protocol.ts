/**
 * The loopback web host's names on the wire, shared by the host (web-host/)
 * and the page (renderer/bridge/http-transport.ts), so both always agree.
 */

/** The per-launch token travels in this header on every bridge call and on the event stream. */
export const WEB_HOST_TOKEN_HEADER = 'X-Privacy-Desk-Token';

/** A bridge call: POST JSON to this path. */
export function bridgeCallPath(method: string): string {
  return `/bridge/${encodeURIComponent(method)}`;
}

/** The event stream (Server-Sent Events): GET with the token header. */
export const BRIDGE_EVENTS_PATH = '/bridge/events';
