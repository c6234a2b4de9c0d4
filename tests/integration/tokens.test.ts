import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { clientFor, failure, recordingFetch, testClock, untilRefused, useSandbox } from './helpers';

describe('access tokens against the sandbox', () => {
  const clock = testClock();
  const sandbox = useSandbox({ now: clock.now });
  /** Our clock runs 10 s ahead of the service's: close enough that the service's created_at is trusted. */
  const ahead = (): number => clock.now() + 10_000;

  it('checkToken gets a token per scope and says when it expires (by the service’s created_at), without the token', async () => {
    const client = clientFor(sandbox.current, { now: ahead });
    const info = await client.checkToken('authentication');
    expect(info.scope).toBe('authentication');
    expect(info.expiresAt).toBe(clock.now() + 7200_000);
    expect(Object.keys(info).sort()).toEqual(['expiresAt', 'scope']);
    expect(sandbox.current.stats().tokenRequests).toMatchObject({ authentication: 1, public: 0 });
  });

  it('50 concurrent list calls cause exactly one token request per scope', async () => {
    const client = clientFor(sandbox.current);
    const pages = await Promise.all(Array.from({ length: 50 }, (_, i) => client.listUsers({ page: (i % 5) + 1, perPage: 10 })));
    expect(pages.every((page) => page.users.length === 10)).toBe(true);
    await Promise.all(Array.from({ length: 20 }, () => client.checkToken('authentication')));
    expect(sandbox.current.stats().tokenRequests).toEqual({ authentication: 1, public: 1, failed: 0 });
  });

  it('wrong credentials give INVALID_CREDENTIALS with the advice, for both scopes', async () => {
    const client = clientFor(sandbox.current, { credentials: { apiKey: sandbox.current.credentials.apiKey, apiSecret: 'not-the-secret-0000' } });
    const error = await failure(client.listUsers());
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(error.status).toBe(401);
    expect(error.requestId).toMatch(/\S/);
    expect(error.message).toContain('Configuration > General');
    expect((await failure(client.anonymizeUser('alice@example.org'))).code).toBe('INVALID_CREDENTIALS');
    const wrongKey = clientFor(sandbox.current, { credentials: { apiKey: 'someone-else', apiSecret: sandbox.current.credentials.apiSecret } });
    expect((await failure(wrongKey.checkToken('public'))).code).toBe('INVALID_CREDENTIALS');
  });

  it('works when the token JSON has no created_at (docs/SERVICE-API.md#token-response)', async () => {
    sandbox.current.setVariants({ tokenCreatedAt: false });
    const client = clientFor(sandbox.current, { now: ahead });
    const info = await client.checkToken('public');
    // Counted from when our clock received it.
    expect(info.expiresAt).toBe(ahead() + 7200_000);
    expect((await client.listUsers()).users).toHaveLength(10);
  });
});

describe('token lifetime', () => {
  it('refreshes a token before it expires (2 s lifetime)', async () => {
    const clock = testClock();
    const sandbox = await startSandbox({ users: 20, tokenTtlSeconds: 2, now: clock.now });
    try {
      const recorder = recordingFetch();
      const client = clientFor(sandbox, { fetch: recorder.fetch, now: clock.now });
      await client.listUsers();
      expect(sandbox.stats().tokenRequests.public).toBe(1);
      clock.advance(1700);
      await client.listUsers();
      expect(sandbox.stats().tokenRequests.public).toBe(1);
      // 1.9 s in: the token still has 0.1 s to live, inside the refresh margin (a tenth of its life).
      clock.advance(200);
      const page = await client.listUsers();
      expect(page.users).toHaveLength(10);
      // A fresh token was fetched before the request, so the service never refused one.
      expect(sandbox.stats().tokenRequests.public).toBe(2);
      expect(sandbox.stats().apiRequests).toBe(3);
      expect(recorder.apiRequests().map((request) => request.outcome)).toEqual([200, 200, 200]);
    } finally {
      await sandbox.close();
    }
  });

  it('a token the service no longer knows (restart) is dropped, renewed, and the request repeated once', async () => {
    const first = await startSandbox({ users: 20 });
    const port = new URL(first.url).port;
    const recorder = recordingFetch();
    const client = clientFor(first, { fetch: recorder.fetch });
    await client.listUsers();
    await client.checkToken('authentication');
    await first.close();
    await untilRefused(first.url);
    // Same address, fresh state: both cached tokens are now unknown to the service.
    const second = await startSandbox({ users: 20, port: Number(port) });
    try {
      expect((await client.listUsers()).users).toHaveLength(10);
      expect(await client.anonymizeUser('alice@example.org')).toMatchObject({ action: 'anonymize', status: 200 });
      expect(second.stats().tokenRequests).toMatchObject({ public: 1, authentication: 1 });
      // Each call after the restart: one refused attempt (401), one with the new token (200). A list attempt on
      // a pooled connection to the old server may fail first and be retried: listing is safe to repeat.
      const answered = recorder.apiRequests().filter((request) => request.outcome !== 'failed');
      const outcomes = answered.map((request) => `${request.method} ${new URL(request.url).pathname} ${String(request.outcome)}`);
      expect(outcomes).toEqual([
        'GET /api/v1/users 200',
        'GET /api/v1/users 401',
        'GET /api/v1/users 200',
        'POST /api/v1/users/alice%40example.org/anonymize 401',
        'POST /api/v1/users/alice%40example.org/anonymize 200',
      ]);
    } finally {
      await second.close();
    }
  });

  it('a token the service says expired (our clock is behind) is renewed and the request repeated once', async () => {
    const service = testClock();
    const sandbox = await startSandbox({ users: 20, tokenTtlSeconds: 2, now: service.now });
    try {
      // Our clock runs 30 s behind the service's: within the skew we trust, so the token looks valid to us for longer.
      const ours = (): number => service.now() - 30_000;
      const recorder = recordingFetch();
      const client = clientFor(sandbox, { fetch: recorder.fetch, now: ours });
      const info = await client.checkToken('public');
      await client.listUsers();
      service.advance(2100);
      expect(info.expiresAt).toBeGreaterThan(ours());
      expect((await client.listUsers()).users).toHaveLength(10);
      expect(sandbox.stats().tokenRequests.public).toBe(2);
      expect(recorder.apiRequests().map((request) => request.outcome)).toEqual([200, 401, 200]);
    } finally {
      await sandbox.close();
    }
  });
});
