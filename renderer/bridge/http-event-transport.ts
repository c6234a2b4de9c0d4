import type { BridgeEventName } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { createServerSentEventParser } from '../../shared/server-sent-events';
import { BRIDGE_EVENTS_PATH, WEB_HOST_TOKEN_HEADER } from '../../shared/web-host-protocol';
import { msg } from '../../shared/messages';
import { HOST_GONE, NOT_CONNECTED, takeHostToken } from './http-transport';
import type { BridgeEventTransport } from './transport';

type RawListener = (payload: unknown) => void;

/**
 * Events from the loopback web host: one GET /bridge/events stream per page,
 * read with fetch() so it carries the token header (EventSource cannot). It
 * opens with the first subscription and closes with the last. If the host
 * ends it, the next subscription or `ready()` opens a new one; events sent in
 * between are not replayed.
 */
export function createHttpEventTransport(options: { token?: string | null; fetch?: typeof fetch } = {}): BridgeEventTransport {
  const token = options.token !== undefined ? options.token : takeHostToken();
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const listeners = new Map<string, Set<RawListener>>();
  let stream: { ready: Promise<void>; abort: AbortController } | null = null;

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

  async function read(body: ReadableStream<Uint8Array>, abort: AbortController): Promise<void> {
    const parser = createServerSentEventParser(({ event, data }) => deliver(event, data));
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } catch {
      // Cut by the host or by abort(): either way this stream is over.
    } finally {
      if (stream?.abort === abort) stream = null;
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
    void read(response.body, abort);
  }

  function connect(): Promise<void> {
    if (stream) return stream.ready;
    const abort = new AbortController();
    const ready = open(abort);
    stream = { ready, abort };
    ready.catch(() => {
      if (stream?.abort === abort) stream = null;
    });
    return ready;
  }

  const hasListeners = () => [...listeners.values()].some((set) => set.size > 0);

  return {
    subscribe(event: BridgeEventName, listener: RawListener) {
      const entry: RawListener = (payload) => listener(payload);
      const subscribers = listeners.get(event) ?? new Set<RawListener>();
      subscribers.add(entry);
      listeners.set(event, subscribers);
      connect().catch(() => {}); // ready() is where a caller learns why the stream cannot open
      return () => {
        subscribers.delete(entry);
        if (!hasListeners() && stream) {
          stream.abort.abort();
          stream = null;
        }
      };
    },
    ready: connect,
  };
}
