import type { BridgeEventName } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { createServerSentEventParser } from '../../shared/server-sent-events';
import { BRIDGE_EVENTS_PATH, EVENT_STREAM_HEARTBEAT_MS, WEB_HOST_TOKEN_HEADER } from '../../shared/web-host-protocol';
import { msg } from '../../shared/messages';
import { createContactState } from './host-contact';
import { HOST_GONE, NOT_CONNECTED, takeHostToken } from './http-transport';
import type { BridgeEventTransport } from './transport';

type RawListener = (payload: unknown) => void;

/** Three heartbeats without a byte: the host has stopped answering (hung, suspended), not merely gone quiet. */
export const EVENT_STREAM_SILENCE_MS = EVENT_STREAM_HEARTBEAT_MS * 3;
/** While contact is lost and someone listens, a new stream is tried this often. */
export const EVENT_STREAM_RECONNECT_MS = 2000;

/**
 * Events from the loopback web host: one GET /bridge/events stream per page,
 * read with fetch() so it carries the token header (EventSource cannot). It
 * opens with the first subscription and closes with the last.
 *
 * It also says whether the host is heard (`contact`): the stream ending without
 * our asking (the host killed or stopped), failing to open, or staying silent
 * past three of the host's heartbeats is a loss of contact, since the last time
 * a byte came. While someone listens, a new stream is tried every few seconds;
 * once one opens, contact is back. Events sent in between are not replayed:
 * screens read their state again when contact comes back.
 */
export function createHttpEventTransport(options: { token?: string | null; fetch?: typeof fetch } = {}): BridgeEventTransport {
  const token = options.token !== undefined ? options.token : takeHostToken();
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const listeners = new Map<string, Set<RawListener>>();
  const contact = createContactState();
  let stream: { ready: Promise<void>; abort: AbortController } | null = null;
  let lastHeardAt = Date.now();
  let silence: ReturnType<typeof setTimeout> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const hasListeners = () => [...listeners.values()].some((set) => set.size > 0);

  const deliver = (event: string, data: string) => {
    const subscribers = listeners.get(event);
    if (!subscribers || subscribers.size === 0) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return; // not ours to show: the event client would refuse it anyway
    }
    for (const listener of [...subscribers]) listener(payload);
  };

  const stopTimers = () => {
    if (silence) clearTimeout(silence);
    if (retry) clearTimeout(retry);
    silence = retry = null;
  };

  /** Contact lost: said once (since the last byte), and a new stream tried a moment later while someone listens. */
  function lose() {
    contact.lost(lastHeardAt);
    if (retry || !hasListeners()) return;
    retry = setTimeout(() => {
      retry = null;
      if (hasListeners()) connect().catch(() => {}); // a failure loses contact again, which tries again
    }, EVENT_STREAM_RECONNECT_MS);
  }

  /** A byte came on this stream: the host is there; its silence is timed from now. */
  function heard(abort: AbortController) {
    lastHeardAt = Date.now();
    if (silence) clearTimeout(silence);
    silence = setTimeout(() => {
      silence = null;
      if (stream?.abort !== abort) return;
      stream = null;
      lose();
      abort.abort();
    }, EVENT_STREAM_SILENCE_MS);
  }

  async function read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    const parser = createServerSentEventParser(({ event, data }) => deliver(event, data));
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        heard(abort);
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Cut by the host or by abort(): either way this stream is over.
    } finally {
      if (stream?.abort === abort) {
        stream = null;
        if (silence) clearTimeout(silence);
        silence = null;
      }
      // Ended without our asking: the host went away (or was stopped) under a running job.
      if (!abort.signal.aborted) lose();
    }
  }

  async function open(abort: AbortController): Promise<void> {
    if (!token) throw new PrivacyDeskError({ code: 'UNAUTHORIZED', outcome: 'not-sent', text: NOT_CONNECTED });
    let response: Response;
    try {
      response = await doFetch(BRIDGE_EVENTS_PATH, {
        method: 'GET',
        headers: { Accept: 'text/event-stream', [WEB_HOST_TOKEN_HEADER]: token },
        credentials: 'omit',
        cache: 'no-store',
        signal: abort.signal,
      });
    } catch {
      throw new PrivacyDeskError({ code: 'NETWORK', outcome: 'not-sent', text: HOST_GONE });
    }
    if (response.status === 401 || response.status === 403) {
      throw new PrivacyDeskError({ code: 'UNAUTHORIZED', outcome: 'not-sent', status: response.status, text: NOT_CONNECTED });
    }
    if (response.status !== 200 || !response.body) {
      throw new PrivacyDeskError({
        code: 'UNEXPECTED_RESPONSE',
        outcome: 'not-sent',
        status: response.status,
        text: msg('bridge.noEventStream', { status: response.status }),
      });
    }
    heard(abort);
    contact.connected();
    void read(response.body, abort);
  }

  function connect(): Promise<void> {
    if (stream) return stream.ready;
    const abort = new AbortController();
    const ready = open(abort);
    stream = { ready, abort };
    ready.catch(() => {
      if (stream?.abort !== abort) return;
      stream = null;
      lose();
    });
    return ready;
  }

  return {
    subscribe(event: BridgeEventName, listener: RawListener) {
      const entry: RawListener = (payload) => listener(payload);
      const subscribers = listeners.get(event) ?? new Set<RawListener>();
      subscribers.add(entry);
      listeners.set(event, subscribers);
      connect().catch(() => {}); // ready() is where a caller learns why the stream cannot open
      return () => {
        subscribers.delete(entry);
        if (hasListeners()) return;
        // Nobody listens: the stream is closed on purpose (not a loss), and nothing is tried again.
        stopTimers();
        if (stream) {
          stream.abort.abort();
          stream = null;
        }
      };
    },
    ready: connect,
    contact,
  };
}
