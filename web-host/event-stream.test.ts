import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../core/credential-store';
import type { FetchLike } from '../core/types';
import { bridgeEvents, type BridgeEvent } from '../shared/contract';
import type { JobFinished, JobProgress } from '../shared/jobs';
import { CONTENT_SECURITY_POLICY } from '../shared/security-headers';
import { createServerSentEventParser, type ServerSentEvent } from '../shared/server-sent-events';
import { BRIDGE_EVENTS_PATH } from '../shared/web-host-protocol';
import Fastify from 'fastify';
import { registerEventStream } from './event-stream';
import { startWebHost, type RunningWebHost } from './web-host';

/**
 * The event stream over real HTTP: GET /bridge/events with the token, a walk of
 * the bundled sandbox's users (500, so 5 pages of 100) started by POST, its
 * events read from the stream, and a cancel. node:http rather than fetch, so
 * the refusal tests can forge Host, Origin and Sec-Fetch-Site.
 */

let host: RunningWebHost;
let dataDir: string;
let staticDir: string;
let port: number;
let pagesAsked: number[] = [];
let hold: { page: number; reached: () => void; released: Promise<void> } | null = null;

/** The core's fetch: records each users page asked for, and can hold one until the test lets it go. */
const gatedFetch: FetchLike = async (input, init) => {
  const url = new URL(String(input));
  if (url.pathname.endsWith('/api/v1/users')) {
    const page = Number(url.searchParams.get('page'));
    pagesAsked.push(page);
    if (hold?.page === page) {
      hold.reached();
      await hold.released;
    }
  }
  return fetch(input, init);
};

function holdPage(page: number): { reached: Promise<void>; release: () => void } {
  let release!: () => void;
  let reached!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  hold = { page, reached, released };
  return { reached: reachedPromise, release };
}

interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** The next event, waiting for it if need be. */
  next(): Promise<ServerSentEvent>;
  /** Resolves when the host ends or cuts the response. */
  ended: Promise<void>;
  body(): string;
  close(): void;
}

function openEvents(headers: Record<string, string>, path = BRIDGE_EVENTS_PATH, toPort = port): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: '127.0.0.1', port: toPort, method: 'GET', path, headers }, (res) => {
      const queue: ServerSentEvent[] = [];
      const waiting: ((event: ServerSentEvent) => void)[] = [];
      const parser = createServerSentEventParser((event) => {
        const waiter = waiting.shift();
        if (waiter) waiter(event);
        else queue.push(event);
      });
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        parser.push(chunk);
      });
      const ended = new Promise<void>((done) => res.on('close', done));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((r) => waiting.push(r))),
        ended,
        body: () => body,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function goodHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-Privacy-Desk-Token': host.token, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin', ...extra };
}

async function call<T>(method: string, input: unknown): Promise<T> {
  const response = await fetch(`${host.origin}/bridge/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...goodHeaders() }, body: JSON.stringify(input) });
  const body = (await response.json()) as { ok: boolean; value?: T; error?: unknown };
  if (!body.ok) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.value as T;
}

/** Reads the stream up to this job's job.finished; checks every event against its schema on the way. */
/** A walk's progress (users.walk): pages, never a batch run's counts. */
type WalkJobProgress = Extract<JobProgress, { page: number }>;

async function readJob(stream: OpenStream, jobId: string): Promise<{ progress: WalkJobProgress[]; finished: JobFinished }> {
  const progress: WalkJobProgress[] = [];
  for (;;) {
    const raw = await stream.next();
    const event = { name: raw.event, payload: JSON.parse(raw.data) } as BridgeEvent;
    expect(bridgeEvents[event.name].safeParse(event.payload).success, raw.data).toBe(true);
    if (event.payload.jobId !== jobId) continue;
    if (event.name !== 'job.progress') return { progress, finished: event.payload };
    if (event.payload.kind === 'batch.run') throw new Error(`job ${jobId} reported a batch run's progress`);
    progress.push(event.payload);
  }
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-events-'));
  staticDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-events-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Privacy Desk</title>');
  host = await startWebHost({ port: 0, dataDir, staticDir, sandboxPort: 0, fetch: gatedFetch, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
  port = Number(new URL(host.origin).port);
});

afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticDir, { recursive: true, force: true });
});

beforeEach(() => {
  pagesAsked = [];
  hold = null;
});

describe('web host event stream (GET /bridge/events)', () => {
  it('streams a whole walk of the users list: one progress per page, then finished', async () => {
    const stream = await openEvents(goodHeaders());
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-store');
      expect(stream.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(stream.headers['access-control-allow-origin']).toBeUndefined();

      const { jobId } = await call<{ jobId: string }>('users.walk', { profileId: 'sandbox' });
      const { progress, finished } = await readJob(stream, jobId);
      expect(progress.map((p) => [p.page, p.totalPages, p.collected])).toEqual([
        [1, 5, 100],
        [2, 5, 200],
        [3, 5, 300],
        [4, 5, 400],
        [5, 5, 500],
      ]);
      expect(finished).toMatchObject({ jobId, kind: 'users.walk', status: 'completed', result: { users: 500, pages: 5 } });
      expect(pagesAsked).toEqual([1, 2, 3, 4, 5]);
    } finally {
      stream.close();
    }
  });

  it('jobs.cancel stops a walk between pages, and the stream says it was cancelled', async () => {
    const stream = await openEvents(goodHeaders());
    try {
      const held = holdPage(2);
      const { jobId } = await call<{ jobId: string }>('users.walk', { profileId: 'sandbox', perPage: 50 });
      const first = await stream.next();
      expect(first.event).toBe('job.progress');
      expect(JSON.parse(first.data)).toMatchObject({ jobId, page: 1, totalPages: 10, collected: 50 });
      await held.reached;
      expect(await call('jobs.cancel', { jobId })).toEqual({ cancelled: true });
      held.release();

      const { progress, finished } = await readJob(stream, jobId);
      expect(progress.map((p) => p.page)).toEqual([2]); // the page already asked for; never page 3
      expect(finished).toEqual({ jobId, kind: 'users.walk', status: 'cancelled' });
      expect(pagesAsked).toEqual([1, 2]);
      expect(await call('jobs.cancel', { jobId })).toEqual({ cancelled: false });
    } finally {
      stream.close();
    }
  });

  it('sends every event to every open stream of the page', async () => {
    const [a, b] = await Promise.all([openEvents(goodHeaders()), openEvents(goodHeaders({ Host: `localhost:${port}`, Origin: `http://localhost:${port}` }))]);
    try {
      const { jobId } = await call<{ jobId: string }>('users.walk', { profileId: 'sandbox' });
      const [fromA, fromB] = await Promise.all([readJob(a, jobId), readJob(b, jobId)]);
      expect(fromA).toEqual(fromB);
      expect(fromA.finished.status).toBe('completed');
    } finally {
      a.close();
      b.close();
    }
  });

  it('refuses a missing or wrong token (401), a foreign Origin or cross-site request (403) and a foreign Host (403)', async () => {
    const wrong = host.token.slice(0, -1) + (host.token.endsWith('A') ? 'B' : 'A');
    const cases: [Record<string, string>, number][] = [
      [{ Origin: host.origin }, 401],
      [goodHeaders({ 'X-Privacy-Desk-Token': wrong }), 401],
      [goodHeaders({ Origin: 'https://evil.example' }), 403],
      [goodHeaders({ Origin: 'null' }), 403],
      [goodHeaders({ 'Sec-Fetch-Site': 'cross-site' }), 403],
      [goodHeaders({ Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }), 403],
    ];
    for (const [headers, status] of cases) {
      const refused = await openEvents(headers);
      await refused.ended;
      expect(refused.status, JSON.stringify(headers)).toBe(status);
      expect(refused.headers['content-type']).not.toMatch(/event-stream/);
      expect(refused.body()).not.toMatch(/^event:/m);
    }
  });
});

describe('closing the host', () => {
  it('ends open event streams and does not wait on them', async () => {
    const ownData = await mkdtemp(join(tmpdir(), 'privacy-desk-web-events-close-'));
    const second = await startWebHost({ port: 0, dataDir: ownData, staticDir, bundledSandbox: false, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
    try {
      const stream = await openEvents({ 'X-Privacy-Desk-Token': second.token }, BRIDGE_EVENTS_PATH, Number(new URL(second.origin).port));
      expect(stream.status).toBe(200);
      await second.close();
      await stream.ended;
      await expect(fetch(`${second.origin}/`)).rejects.toThrow();
    } finally {
      await second.close();
      await rm(ownData, { recursive: true, force: true });
    }
  });
});

describe('the heartbeat', () => {
  it('writes a comment every few seconds while the stream is open, so the page can tell a host that stopped answering', async () => {
    const server = Fastify();
    registerEventStream(server, { events: { subscribe: () => () => {} }, refuse: () => undefined, heartbeatMs: 40 });
    await server.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = server.server.address();
      const stream = await openEvents({}, BRIDGE_EVENTS_PATH, typeof address === 'object' && address ? address.port : 0);
      expect(stream.status).toBe(200);
      await expect.poll(() => stream.body().match(/^: alive$/gm)?.length ?? 0, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
      // Comments only: nothing a reader takes for an event.
      expect(stream.body()).not.toMatch(/^event:/m);
      stream.close();
    } finally {
      await server.close();
    }
  });
});
