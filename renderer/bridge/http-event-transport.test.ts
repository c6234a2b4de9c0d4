import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import { createBridgeEventClient } from './bridge-event-client';
import { createHttpEventTransport, EVENT_STREAM_RECONNECT_MS, EVENT_STREAM_SILENCE_MS } from './http-event-transport';
import { isNotConnectedError } from './http-transport';

/** A fetch that answers the event stream with a body the test writes to, byte chunk by byte chunk. */
function streamingFetch() {
  const encoder = new TextEncoder();
  const opened: { url: string; init: RequestInit; write(text: string): void; writeBytes(bytes: Uint8Array): void; end(): void; aborted: () => boolean }[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let aborted = false;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    init.signal?.addEventListener('abort', () => {
      aborted = true;
      controller.error(new DOMException('The operation was aborted.', 'AbortError'));
    });
    opened.push({
      url,
      init,
      write: (text) => controller.enqueue(encoder.encode(text)),
      writeBytes: (bytes) => controller.enqueue(bytes),
      end: () => controller.close(),
      aborted: () => aborted,
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, opened };
}

const progress = (page: number) => ({ jobId: 'job-1', kind: 'users.walk', page, totalPages: 3, collected: page * 10 });
const frame = (event: string, payload: unknown) => `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;

/** Resolves once `count` payloads have been collected. */
function collector<T>(count: number) {
  const seen: T[] = [];
  let done!: (all: T[]) => void;
  const all = new Promise<T[]>((resolve) => (done = resolve));
  return {
    seen,
    all,
    push: (payload: T) => {
      seen.push(payload);
      if (seen.length === count) done(seen);
    },
  };
}

describe('web host event transport (fetch + SSE reader)', () => {
  it('opens GET /bridge/events with the token header and no cookies, once for every subscription', async () => {
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't0k', fetch }));
    events.subscribe('job.progress', () => {});
    events.subscribe('job.finished', () => {});
    await events.ready();
    expect(opened).toHaveLength(1);
    expect(opened[0]!.url).toBe('/bridge/events');
    expect(opened[0]!.init).toMatchObject({ method: 'GET', credentials: 'omit', headers: { 'X-Privacy-Desk-Token': 't0k', Accept: 'text/event-stream' } });
  });

  it('delivers each event, typed and checked, however the bytes are split (even inside a UTF-8 character)', async () => {
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const got = collector<unknown>(3);
    events.subscribe('job.progress', got.push);
    const finished = collector<unknown>(1);
    events.subscribe('job.finished', finished.push);
    await events.ready();

    const stream = opened[0]!;
    stream.write(': connected\n\n');
    const text = frame('job.progress', progress(1)) + frame('job.progress', progress(2));
    stream.write(text.slice(0, 7));
    stream.write(text.slice(7, 40));
    stream.write(text.slice(40));
    const bytes = new TextEncoder().encode(frame('job.finished', { jobId: 'job-1', kind: 'users.walk', status: 'completed', result: { users: 1, pages: 1, firstUids: ['zoë'] } }));
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "ë"
    stream.writeBytes(bytes.slice(0, split));
    stream.writeBytes(bytes.slice(split));
    stream.write(frame('job.progress', progress(3)));

    expect(await got.all).toEqual([progress(1), progress(2), progress(3)]);
    expect(await finished.all).toEqual([{ jobId: 'job-1', kind: 'users.walk', status: 'completed', result: { users: 1, pages: 1, firstUids: ['zoë'] } }]);
  });

  it('drops an event whose payload does not match the contract, and one that is not JSON', async () => {
    const { fetch, opened } = streamingFetch();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const got = collector<unknown>(1);
    events.subscribe('job.progress', got.push);
    await events.ready();
    opened[0]!.write(frame('job.progress', { jobId: 'job-1', page: 'one' }) + 'event: job.progress\ndata: {oops\n\n' + frame('job.progress', progress(1)));
    expect(await got.all).toEqual([progress(1)]);
    expect(warn).toHaveBeenCalledWith('[privacy-desk] dropped a malformed "job.progress" event');
    warn.mockRestore();
  });

  it('closes the stream when the last subscription ends, and opens a new one for the next', async () => {
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const stopA = events.subscribe('job.progress', () => {});
    const stopB = events.subscribe('job.finished', () => {});
    await events.ready();
    stopA();
    expect(opened[0]!.aborted()).toBe(false);
    stopB();
    stopB(); // twice is harmless
    expect(opened[0]!.aborted()).toBe(true);

    events.subscribe('job.progress', () => {});
    await events.ready();
    expect(opened).toHaveLength(2);
  });

  it('after the host ends the stream, ready() opens a new one', async () => {
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const got = collector<unknown>(1);
    events.subscribe('job.progress', got.push);
    await events.ready();
    opened[0]!.end();
    // The reader notices the end a few promise turns later: until then ready() answers for the old stream.
    for (let turn = 0; turn < 20 && opened.length < 2; turn += 1) await events.ready();
    expect(opened).toHaveLength(2);
    opened[1]!.write(frame('job.progress', progress(1)));
    expect(await got.all).toEqual([progress(1)]);
  });

  it('says the page is not connected when the host refuses the token (401/403) or there is none', async () => {
    for (const status of [401, 403]) {
      const events = createBridgeEventClient(createHttpEventTransport({ token: 'wrong', fetch: async () => new Response('{}', { status }) }));
      events.subscribe('job.progress', () => {});
      const thrown = await events.ready().catch((error: unknown) => error);
      expect(isNotConnectedError(thrown)).toBe(true);
      expect((thrown as PrivacyDeskError).status).toBe(status);
    }
    const fetch = vi.fn();
    const noToken = createBridgeEventClient(createHttpEventTransport({ token: null, fetch }));
    expect(isNotConnectedError(await noToken.ready().catch((error: unknown) => error))).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reports a stopped host as NETWORK, and tries again on the next ready()', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const thrown = (await events.ready().catch((error: unknown) => error)) as PrivacyDeskError;
    expect(thrown).toBeInstanceOf(PrivacyDeskError);
    expect(thrown.code).toBe('NETWORK');
    expect(thrown.message).toMatch(/npm run web/);
    await events.ready().catch(() => {});
    expect(calls).toBe(2);
  });
});

describe('the host’s contact, as the event stream tells it', () => {
  afterEach(() => vi.useRealTimers());

  /** Lets the stream reader take what was written (a few promise turns). */
  const settle = async () => {
    for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
  };

  it('is lost the moment the host ends the stream (killed, stopped), since the last time it was heard; back once a new stream opens', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T14:32:10Z') });
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const seen: unknown[] = [];
    events.onContact((contact) => seen.push(contact));
    events.subscribe('job.progress', () => {});
    await events.ready();
    expect(events.contact()).toEqual({ state: 'connected' });
    vi.setSystemTime(new Date('2026-11-24T14:32:40Z'));
    opened[0]!.write(': alive\n\n');
    await settle();
    vi.setSystemTime(new Date('2026-11-24T14:32:43Z'));
    opened[0]!.end();
    await settle();
    expect(events.contact()).toEqual({ state: 'lost', since: '2026-11-24T14:32:40.000Z' });
    expect(seen).toEqual([{ state: 'lost', since: '2026-11-24T14:32:40.000Z' }]);

    // Tried again a moment later; the new stream brings contact back.
    await vi.advanceTimersByTimeAsync(EVENT_STREAM_RECONNECT_MS);
    expect(opened).toHaveLength(2);
    await settle();
    expect(events.contact()).toEqual({ state: 'connected' });
    expect(seen).toEqual([{ state: 'lost', since: '2026-11-24T14:32:40.000Z' }, { state: 'connected' }]);
  });

  it('a host that stops answering (not even its heartbeat) is lost after a silence; the stream is dropped and opened again', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T14:32:00Z') });
    const { fetch, opened } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    events.subscribe('job.progress', () => {});
    await events.ready();
    // Heard now and then: the heartbeat keeps it connected.
    for (let beat = 0; beat < 5; beat += 1) {
      await vi.advanceTimersByTimeAsync(EVENT_STREAM_SILENCE_MS / 2);
      opened[0]!.write(': alive\n\n');
      await settle();
    }
    expect(events.contact()).toEqual({ state: 'connected' });
    const lastHeard = new Date(Date.now()).toISOString();
    await vi.advanceTimersByTimeAsync(EVENT_STREAM_SILENCE_MS);
    expect(events.contact()).toEqual({ state: 'lost', since: lastHeard });
    expect(opened[0]!.aborted()).toBe(true);
    await vi.advanceTimersByTimeAsync(EVENT_STREAM_RECONNECT_MS);
    expect(opened).toHaveLength(2);
  });

  it('a host that cannot be reached is lost contact too, tried again while someone listens, and not after the last one leaves', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T14:00:00Z') });
    let calls = 0;
    const fetch = (async () => {
      calls += 1;
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const stop = events.subscribe('job.progress', () => {});
    await settle();
    expect(events.contact().state).toBe('lost');
    await vi.advanceTimersByTimeAsync(EVENT_STREAM_RECONNECT_MS * 3);
    expect(calls).toBeGreaterThanOrEqual(3);
    stop();
    const before = calls;
    await vi.advanceTimersByTimeAsync(EVENT_STREAM_RECONNECT_MS * 10);
    expect(calls).toBe(before);
  });

  it('leaving (the last subscription ends) is not a loss of contact', async () => {
    const { fetch } = streamingFetch();
    const events = createBridgeEventClient(createHttpEventTransport({ token: 't', fetch }));
    const stop = events.subscribe('job.progress', () => {});
    await events.ready();
    stop();
    await settle();
    expect(events.contact()).toEqual({ state: 'connected' });
  });
});

