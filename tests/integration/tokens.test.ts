import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../sandbox/server';
import { clientFor, failure, recordingFetch, useSandbox } from './helpers';

describe('access tokens against the sandbox', () => {
  const sandbox = useSandbox();

  it('checkToken gets a token per scope and says when it expires, without the token', async () => {
    const client = clientFor(sandbox.current);
    const before = Date.now();
    const info = await client.checkToken('authentication');
    expect(info.scope).toBe('authentication');
    expect(info.expiresAt).toBeGreaterThanOrEqual(before + 7190_000);
    expect(info.expiresAt).toBeLessThanOrEqual(Date.now() + 7200_000);
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

  it('works when the token JSON has no created_at (Part B variant)', async () => {
    sandbox.current.setVariants({ tokenCreatedAt: false });
    const client = clientFor(sandbox.current);
    const before = Date.now();
    const info = await client.checkToken('public');
    expect(info.expiresAt).toBeGreaterThanOrEqual(before + 7200_000);
    expect((await client.listUsers()).users).toHaveLength(10);
  });
});

describe('token lifetime', () => {
  it('refreshes a token before it expires (2 s lifetime)', async () => {
    const sandbox = await startSandbox({ users: 20, tokenTtlSeconds: 2 });
    try {
      const client = clientFor(sandbox);
      await client.listUsers();
      expect(sandbox.stats().tokenRequests.public).toBe(1);
      await client.listUsers();
      expect(sandbox.stats().tokenRequests.public).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 2100));
      const page = await client.listUsers();
      expect(page.users).toHaveLength(10);
      // A fresh token was fetched before the request, so the service never saw the expired one.
      expect(sandbox.stats().tokenRequests.public).toBe(2);
      expect(sandbox.stats().apiRequests).toBe(3);
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
    await new Promise((resolve) => setTimeout(resolve, 100));
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
    const sandbox = await startSandbox({ users: 20, tokenTtlSeconds: 2 });
    try {
      // Our clock runs 30 s behind the service's: within the skew we trust, so the token looks valid to us for longer.
      const client = clientFor(sandbox, { now: () => Date.now() - 30_000 });
      const info = await client.checkToken('public');
      await client.listUsers();
      await new Promise((resolve) => setTimeout(resolve, 2100));
      expect(info.expiresAt).toBeGreaterThan(Date.now() - 30_000);
      expect((await client.listUsers()).users).toHaveLength(10);
      expect(sandbox.stats().tokenRequests.public).toBe(2);
      expect(sandbox.stats().apiRequests).toBe(3);
    } finally {
      await sandbox.close();
    }
  });
});
