import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { PrivacyDeskError } from '../../shared/errors';
import { startSandbox } from '../../sandbox/server';
import { clientFor, failure, gateFor, leaks, recordingFetch, untilRefused, useSandbox } from './helpers';

/** A port on which nothing listens: bound, read, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('failures against the sandbox', () => {
  const sandbox = useSandbox({ users: 30 });

  it('refuses invalid input with INVALID_INPUT before sending any request', async () => {
    const recorder = recordingFetch();
    const client = clientFor(sandbox.current, { fetch: recorder.fetch });
    // Irreversible acts are checked by the gate, the one way to them.
    const { gate } = gateFor(sandbox.current, { fetch: recorder.fetch });
    const attempts: Array<Promise<unknown>> = [
      gate.erase({ action: 'anonymize', uid: '', confirmUid: '' }),
      gate.erase({ action: 'delete', uid: 'line\nbreak', confirmUid: 'line\nbreak' }),
      gate.erase({ action: 'anonymize', uid: 'x'.repeat(1025), confirmUid: 'x'.repeat(1025) }),
      gate.erase({ action: 'delete', uid: '..', confirmUid: '..' }),
      gate.erase({ action: 'delete', uid: 'half \ud800 a pair', confirmUid: 'half \ud800 a pair' }),
      // Lone surrogates anywhere: high or low half, at either end, reversed pair.
      gate.erase({ action: 'anonymize', uid: '\udc00alice', confirmUid: '\udc00alice' }),
      gate.erase({ action: 'anonymize', uid: 'emoji cut \ud83d', confirmUid: 'emoji cut \ud83d' }),
      gate.erase({ action: 'delete', uid: 'a\ude00\ud83db', confirmUid: 'a\ude00\ud83db' }),
      gate.logout({ uid: 'alice\ud800' }),
      gate.erase({ action: 'purge' as never, uid: 'alice@example.org', confirmUid: 'alice@example.org' }),
      gate.logout({ uid: '' }),
      client.listUsers({ page: 0 }),
      client.listUsers({ perPage: 101 }),
      client.listUsers({ page: 1.5 }),
      client.sendLogout('alice@example.org', { algorithm: 'RS256' as never }),
      client.sendLogout('alice@example.org', { extraClaims: { sub: 'someone-else' } }),
      client.buildLogoutToken('tab\there'),
      client.buildLogoutToken('\udfffalone'),
      client.checkToken('admin' as never),
    ];
    for (const attempt of attempts) {
      const error = await failure(attempt);
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.outcome).toBe('not-sent');
      expect(error.message.length).toBeGreaterThan(20);
    }
    expect(recorder.sent).toHaveLength(0);
    expect(sandbox.current.stats()).toMatchObject({ apiRequests: 0, logoutRequests: 0, tokenRequests: { authentication: 0, public: 0, failed: 0 } });
  });

  it('a closed port is NETWORK naming the host; listing is retried, the others are not', async () => {
    const port = await closedPort();
    const waits: number[] = [];
    const client = clientFor(sandbox.current, {
      profile: { id: 'closed', name: 'Closed', baseUrl: `http://127.0.0.1:${port}`, applicationName: 'app' },
      sleep: async (ms) => void waits.push(ms),
    });
    const listing = await failure(client.listUsers());
    expect(listing.code).toBe('NETWORK');
    expect(listing.message).toContain(`Could not reach 127.0.0.1:${port}`);
    expect(listing.message).toContain('Check the address and your connection.');
    expect(waits).toHaveLength(3);
    const erasure = await failure(client.anonymizeUser('alice@example.org'));
    expect(erasure.code).toBe('NETWORK');
    expect(erasure.message).not.toMatch(/UNKNOWN/);
    const logout = await failure(client.sendLogout('alice@example.org'));
    expect(logout.code).toBe('NETWORK');
  });

  it('erasure refused at connect time (service stopped after the token) says nothing was changed', async () => {
    const stopping = await startSandbox({ users: 20 });
    const client = clientFor(stopping);
    await client.checkToken('authentication');
    await stopping.close();
    // The pooled keep-alive connection is gone too, so the next attempt is a fresh connect that gets refused.
    await untilRefused(stopping.url);
    const error = await failure(client.anonymizeUser('alice@example.org'));
    expect(error.code).toBe('NETWORK');
    expect(error.message).toMatch(/connection was refused/);
    expect(error.message).toMatch(/Nothing was changed/);
  });

  it('a slow service is TIMEOUT for listing, after the retries', async () => {
    const client = clientFor(sandbox.current, { timeoutMs: 200, maxListRetries: 1 });
    await client.checkToken('public');
    sandbox.current.setFaults({ latencyMs: 1000 });
    const error = await failure(client.listUsers());
    expect(error.code).toBe('TIMEOUT');
    expect(error.message).toMatch(/within 0\.2 s/);
  });

  it('a slow logout endpoint is a thrown TIMEOUT, not a result', async () => {
    sandbox.current.setFaults({ latencyMs: 1000 });
    const error = await failure(clientFor(sandbox.current, { timeoutMs: 200 }).sendLogout('alice@example.org'));
    expect(error.code).toBe('TIMEOUT');
  });
});

describe('no secret, token or Authorization header in any error', () => {
  const sandbox = useSandbox({ users: 30 });

  /** Two quick API requests: with a limit of 1 per second, the next one is answered 429. */
  const useUpRateLimit = async () => {
    for (let i = 0; i < 2; i += 1) await fetch(`${sandbox.current.url}/api/v1/users?api_key=${sandbox.current.credentials.apiKey}`);
  };

  it('holds for every error path', async () => {
    const { apiKey, apiSecret } = sandbox.current.credentials;
    const recorder = recordingFetch();
    const errors: PrivacyDeskError[] = [];
    const collect = async (promise: Promise<unknown>) => errors.push(await failure(promise));
    const client = clientFor(sandbox.current, { fetch: recorder.fetch, timeoutMs: 300, maxListRetries: 0 });
    await client.listUsers();
    await client.checkToken('authentication');

    await collect(client.anonymizeUser('nobody-at-all'));
    await collect(gateFor(sandbox.current, { fetch: recorder.fetch }).gate.erase({ action: 'delete', uid: '', confirmUid: '' }));
    sandbox.current.setFaults({ errorRate: 1 });
    await collect(client.listUsers());
    await collect(client.deleteUser('alice@example.org'));
    sandbox.current.setFaults({ errorRate: 0, rateLimit: 1 });
    await useUpRateLimit();
    await collect(client.listUsers());
    await useUpRateLimit();
    await collect(client.anonymizeUser('alice@example.org'));
    sandbox.current.setFaults({ rateLimit: 0, latencyMs: 1000 });
    await collect(client.listUsers());
    await collect(client.anonymizeUser('alice@example.org'));
    sandbox.current.setFaults({ latencyMs: 0, dropRate: 1 });
    await collect(client.listUsers());
    await collect(client.deleteUser('alice@example.org'));
    sandbox.current.setFaults({ dropRate: 0 });

    // The service refuses every bearer token: UNAUTHORIZED after one renewal.
    const garbled = recordingFetch((request) => {
      if (request.headers.has('authorization')) request.headers.set('authorization', 'Bearer not-a-token-at-all');
      return request;
    });
    await collect(clientFor(sandbox.current, { fetch: garbled.fetch }).listUsers());
    await collect(clientFor(sandbox.current, { fetch: garbled.fetch }).anonymizeUser('alice@example.org'));
    // Token endpoint refusals: wrong secret, refused scope, a 400 the client does not expect.
    await collect(clientFor(sandbox.current, { credentials: { apiKey, apiSecret: `${apiSecret}-wrong` } }).listUsers());
    const badScope = recordingFetch((request) => (request.url.endsWith('/oauth/token') ? { ...request, body: request.body.replace('scope=authentication', 'scope=root') } : request));
    await collect(clientFor(sandbox.current, { fetch: badScope.fetch }).deleteUser('alice@example.org'));
    const badGrant = recordingFetch((request) => (request.url.endsWith('/oauth/token') ? { ...request, body: request.body.replace('grant_type=client_credentials', 'grant_type=password') } : request));
    await collect(clientFor(sandbox.current, { fetch: badGrant.fetch }).checkToken('public'));
    const port = sandbox.current.url.replace(/.*:/, '');
    await collect(clientFor(sandbox.current, { profile: { id: 'x', name: 'X', baseUrl: `http://127.0.0.1:${Number(port) + 1}`, applicationName: 'a' } }).listUsers());

    const codes = new Set(errors.map((error) => error.code));
    for (const code of ['NOT_FOUND', 'INVALID_INPUT', 'SERVER_ERROR', 'RATE_LIMITED', 'TIMEOUT', 'NETWORK', 'UNAUTHORIZED', 'INVALID_CREDENTIALS', 'INSUFFICIENT_SCOPE', 'UNEXPECTED_RESPONSE']) {
      expect(codes, `no ${code} error was produced`).toContain(code);
    }
    const tokens = [...recorder.issuedTokens, ...garbled.issuedTokens, ...badScope.issuedTokens];
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    for (const error of errors) {
      expect(leaks(error, [apiSecret, apiKey, ...tokens, 'not-a-token-at-all']), `${error.code}: ${error.message}`).toEqual([]);
      expect(error.cause).toBeUndefined();
    }
  });
});
