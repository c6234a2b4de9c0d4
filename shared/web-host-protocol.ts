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

/**
 * The host writes a comment on the event stream this often, so the page can tell a host that stopped
 * answering (hung, suspended) from one that has nothing to say: silence longer than three beats is a loss.
 */
export const EVENT_STREAM_HEARTBEAT_MS = 5000;
