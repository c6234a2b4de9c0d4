import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAIN_PROCESS_GONE } from '../../shared/bridge-methods';
import { createBridgeClient } from './bridge-client';
import { createBridgeEventClient } from './bridge-event-client';
import { createIpcEventTransport, createIpcTransport, MAIN_PING_EVERY_MS, MAIN_SILENCE_MS, type PreloadBridge } from './ipc-transport';

/** A stand-in for what the preload exposes: named methods, and named subscriptions under `events`. */
function fakePreload() {
  const listeners: Record<string, ((payload: unknown) => void)[]> = {};
  const subscription = (name: string) => (listener: (payload: unknown) => void) => {
    (listeners[name] ??= []).push(listener);
    return () => {
      listeners[name] = listeners[name]!.filter((l) => l !== listener);
    };
  };
  const bridge = {
    'jobs.cancel': vi.fn(async () => ({ ok: true, value: { cancelled: true } })),
    'users.walk': vi.fn(async () => Promise.reject(new Error('main process gone'))),
    events: { 'job.progress': subscription('job.progress'), 'job.finished': subscription('job.finished') },
  } as unknown as PreloadBridge;
  const send = (name: string, payload: unknown) => (listeners[name] ?? []).forEach((listener) => listener(payload));
  return { bridge, send, listeners };
}

describe('Electron IPC transport', () => {
  it('calls the named preload function and answers a lost main process with the shared message', async () => {
    const { bridge } = fakePreload();
    const client = createBridgeClient(createIpcTransport(bridge));
    await expect(client['jobs.cancel']({ jobId: 'j' })).resolves.toEqual({ cancelled: true });
    await expect(client['users.walk']({ profileId: 'p' })).rejects.toMatchObject({ code: 'INTERNAL', message: MAIN_PROCESS_GONE.message });
  });

  it('subscribes through the named subscription, checks each payload, and unsubscribes', async () => {
    const { bridge, send, listeners } = fakePreload();
    const events = createBridgeEventClient(createIpcEventTransport(bridge));
    await expect(events.ready()).resolves.toBeUndefined();
    const seen: unknown[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const stop = events.subscribe('job.progress', (payload) => seen.push(payload));
    send('job.progress', { jobId: 'j', kind: 'users.walk', page: 1, collected: 3 });
    send('job.progress', { jobId: 'j', kind: 'users.walk', page: 0, collected: 3 }); // page 0 breaks the contract
    stop();
    send('job.progress', { jobId: 'j', kind: 'users.walk', page: 2, collected: 6 });
    expect(seen).toEqual([{ jobId: 'j', kind: 'users.walk', page: 1, collected: 3 }]);
    expect(listeners['job.progress']).toEqual([]);
    warn.mockRestore();
  });

  it('says to restart when the preload has no such event (app and page out of step)', () => {
    const { bridge } = fakePreload();
    const events = createIpcEventTransport({ ...bridge, events: {} } as unknown as PreloadBridge);
    expect(() => events.subscribe('job.finished', () => {})).toThrow(/Restart the app/);
  });
});

describe('Electron main’s contact, told by a ping while someone listens', () => {
  afterEach(() => vi.useRealTimers());

  it('is lost when main stops answering (its event channel cannot tell), since its last answer; back when it answers again', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T14:30:00Z') });
    const { bridge } = fakePreload();
    let answering = true;
    const pending: (() => void)[] = [];
    const ping = vi.fn(() => (answering ? Promise.resolve({ ok: true, value: {} }) : new Promise((resolve) => pending.push(() => resolve({ ok: true, value: {} })))));
    (bridge as unknown as Record<string, unknown>)['app.info'] = ping;
    const events = createBridgeEventClient(createIpcEventTransport(bridge));
    const stop = events.subscribe('job.progress', () => {});
    await vi.advanceTimersByTimeAsync(MAIN_PING_EVERY_MS);
    expect(ping).toHaveBeenCalled();
    expect(events.contact()).toEqual({ state: 'connected' });
    const lastAnswer = new Date(Date.now()).toISOString();

    answering = false;
    await vi.advanceTimersByTimeAsync(MAIN_SILENCE_MS - 1);
    expect(events.contact()).toEqual({ state: 'connected' });
    await vi.advanceTimersByTimeAsync(MAIN_PING_EVERY_MS);
    expect(events.contact()).toEqual({ state: 'lost', since: lastAnswer });

    pending.forEach((answer) => answer());
    await vi.advanceTimersByTimeAsync(0);
    expect(events.contact()).toEqual({ state: 'connected' });
    stop();
    const calls = ping.mock.calls.length;
    await vi.advanceTimersByTimeAsync(MAIN_PING_EVERY_MS * 5);
    expect(ping.mock.calls.length).toBe(calls);
  });
});

