import { describe, expect, it } from 'vitest';
import type { SandboxVariants } from '../../sandbox/server';
import { clientFor, failure, recordingFetch, useSandbox } from './helpers';

describe('listUsers against the sandbox', () => {
  const sandbox = useSandbox({ users: 60 });

  it('lists a page with normalised records and the raw fields kept', async () => {
    const page = await clientFor(sandbox.current).listUsers({ page: 1, perPage: 25 });
    expect(page).toMatchObject({ page: 1, perPage: 25, total: 60, totalPages: 3, hasNext: true });
    expect(page.users).toHaveLength(25);
    const alice = page.users.find((user) => user.uid === 'alice@example.org');
    expect(alice?.fullName).toEqual(expect.any(String));
    expect(alice?.fields).toMatchObject({ uid: 'alice@example.org', hash_id: expect.any(String), level: expect.any(Object) });
    expect(alice?.messagesCount).toEqual(alice?.fields.messages_count);
    expect(alice?.createdAt).toEqual(alice?.fields.created_at);
  });

  it('walks every page to the end and sees every user once', async () => {
    const client = clientFor(sandbox.current);
    const uids: string[] = [];
    for (let page = 1, more = true; more; page += 1) {
      const result = await client.listUsers({ page, perPage: 25 });
      uids.push(...result.users.map((user) => user.uid ?? ''));
      more = result.hasNext;
      expect(page).toBeLessThanOrEqual(3);
    }
    expect(new Set(uids).size).toBe(60);
  });

  const variants: Array<[string, Partial<SandboxVariants>]> = [
    ['success-data', { listBody: 'success-data' }],
    ['bare array', { listBody: 'bare-array' }],
    ['users key', { listBody: 'users-key' }],
    ['data + meta', { listBody: 'data-meta' }],
    ['bare array, no headers', { listBody: 'bare-array', paginationHeaders: false }],
    ['users key, no headers', { listBody: 'users-key', paginationHeaders: false }],
    ['data + meta, no headers', { listBody: 'data-meta', paginationHeaders: false }],
  ];
  it.each(variants)('reads the %s variant: right users, right next-page answer', async (_name, variant) => {
    sandbox.current.setVariants(variant);
    const client = clientFor(sandbox.current);
    const first = await client.listUsers({ page: 1, perPage: 25 });
    expect(first.users).toHaveLength(25);
    expect(first.users[0]?.uid).toBe('alice@example.org');
    expect(first.hasNext).toBe(true);
    const last = await client.listUsers({ page: 3, perPage: 25 });
    expect(last.users).toHaveLength(10);
    expect(last.hasNext).toBe(false);
    const beyond = await client.listUsers({ page: 4, perPage: 25 });
    expect(beyond.users).toHaveLength(0);
    expect(beyond.hasNext).toBe(false);
  });

  it('without headers, a full last page says there may be more and the next one is empty', async () => {
    sandbox.current.setVariants({ paginationHeaders: false });
    const client = clientFor(sandbox.current);
    expect((await client.listUsers({ page: 6, perPage: 10 })).hasNext).toBe(true);
    const after = await client.listUsers({ page: 7, perPage: 10 });
    expect(after).toMatchObject({ users: [], hasNext: false });
  });

  it('a page shorter than asked (silent cap) still has a next page when the headers say so', async () => {
    sandbox.current.setVariants({ perPageCap: 7 });
    const page = await clientFor(sandbox.current).listUsers({ page: 1, perPage: 25 });
    expect(page.users).toHaveLength(7);
    expect(page.hasNext).toBe(true);
    expect(page.totalPages).toBe(9);
  });

  it('falls back to the api_key parameter when the public scope is refused, and remembers it', async () => {
    // Imitates a service that will not grant "public" to this key: the token request asks for an unknown scope.
    const recorder = recordingFetch((request) =>
      request.url.endsWith('/oauth/token') && request.body.includes('scope=public') ? { ...request, body: request.body.replace('scope=public', 'scope=none-for-you') } : request,
    );
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    expect((await client.listUsers()).users).toHaveLength(10);
    expect((await client.listUsers({ page: 2 })).users).toHaveLength(10);
    const listCalls = recorder.apiRequests().map((request) => new URL(request.url));
    expect(listCalls).toHaveLength(2);
    expect(listCalls.every((url) => url.searchParams.get('api_key') === sandbox.current.credentials.apiKey)).toBe(true);
    expect(recorder.sent.filter((request) => request.url.endsWith('/oauth/token'))).toHaveLength(1);
  });

  it('falls back to the api_key parameter on a 403 for the list route', async () => {
    // The token request is turned into an authentication-scope one: the sandbox then answers 403 on the list.
    const recorder = recordingFetch((request) =>
      request.url.endsWith('/oauth/token') ? { ...request, body: request.body.replace('scope=public', 'scope=authentication') } : request,
    );
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    expect((await client.listUsers()).users).toHaveLength(10);
    expect(recorder.apiRequests().map((request) => request.outcome)).toEqual([403, 200]);
    expect(new URL(recorder.apiRequests()[1]!.url).searchParams.get('api_key')).toBe(sandbox.current.credentials.apiKey);
  });

  it('retries a 5xx and then succeeds', async () => {
    sandbox.current.setFaults({ errorRate: 1 });
    const waits: number[] = [];
    const client = clientFor(sandbox.current, {
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 2) sandbox.current.setFaults({ errorRate: 0 });
      },
    });
    const page = await client.listUsers();
    expect(page.users).toHaveLength(10);
    expect(waits.length).toBeGreaterThanOrEqual(2);
  });

  it('gives up after maxListRetries with SERVER_ERROR carrying status and request id', async () => {
    const client = clientFor(sandbox.current, { maxListRetries: 2 });
    await client.checkToken('public');
    sandbox.current.setFaults({ errorRate: 1 });
    const before = sandbox.current.stats().apiRequests;
    const error = await failure(client.listUsers());
    expect(error.code).toBe('SERVER_ERROR');
    expect([500, 502, 503]).toContain(error.status);
    expect(error.requestId).toMatch(/\S/);
    expect(sandbox.current.stats().apiRequests - before).toBe(3);
  });

  it.each(['seconds', 'http-date'] as const)('honours Retry-After (%s) on 429, then succeeds', async (retryAfter) => {
    sandbox.current.setVariants({ retryAfter });
    sandbox.current.setFaults({ rateLimit: 1 });
    const waits: number[] = [];
    const limited = clientFor(sandbox.current, {
      sleep: async (ms) => {
        waits.push(ms);
        sandbox.current.setFaults({ rateLimit: 0 });
      },
    });
    // Use up this second's allowance, so the list call is limited.
    await fetch(`${sandbox.current.url}/api/v1/users?api_key=${sandbox.current.credentials.apiKey}`);
    await fetch(`${sandbox.current.url}/api/v1/users?api_key=${sandbox.current.credentials.apiKey}`);
    const page = await limited.listUsers();
    expect(page.users).toHaveLength(10);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect(waits[0]).toBeLessThanOrEqual(60_000);
  });

  it('a non-JSON answer is UNEXPECTED_RESPONSE', async () => {
    const htmlFetch = recordingFetch((request) => (request.url.includes('/api/v1/users') ? { ...request, url: `${sandbox.current.url}/sandbox/nothing-here` } : request));
    const error = await failure(clientFor(sandbox.current, { fetch: htmlFetch.fetch }).listUsers());
    expect(error.code).toBe('UNEXPECTED_RESPONSE');
    const index = recordingFetch((request) => (request.url.includes('/api/v1/users') ? { ...request, url: `${sandbox.current.url}/sandbox/` } : request));
    const shape = await failure(clientFor(sandbox.current, { fetch: index.fetch }).listUsers());
    expect(shape).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 200 });
    expect(shape.message).toMatch(/could not be read/);
  });
});
