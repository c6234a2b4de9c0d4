import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { api, listPage, requestToken, tokenFor } from './test-support';

/** A whole second, so that the HTTP-date Retry-After is known exactly. */
const START = Date.parse('2026-11-21T12:00:00Z');

describe('faults', () => {
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    // The sandbox's clock stands still unless a test moves it: rate-limit windows pass only when told to.
    sandbox = await startSandbox({ users: 30, now: () => START });
    token = await tokenFor(sandbox, 'public');
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  it('are off by default', async () => {
    for (let i = 0; i < 20; i += 1) expect((await api(sandbox, 'GET', '/api/v1/users', token)).status).toBe(200);
  });

  it('faultSeed: the same seed meets the same faults on the same requests; another seed, others', async () => {
    const statusesWith = async (faultSeed: number) => {
      const seeded = await startSandbox({ users: 3, faultSeed });
      try {
        const seededToken = await tokenFor(seeded, 'public');
        seeded.setFaults({ errorRate: 0.5 });
        const statuses: number[] = [];
        for (let i = 0; i < 24; i += 1) statuses.push((await api(seeded, 'GET', '/api/v1/users', seededToken)).status);
        return statuses.join(' ');
      } finally {
        await seeded.close();
      }
    };
    const first = await statusesWith(8);
    expect(first).toMatch(/200/);
    expect(first).toMatch(/50\d/);
    expect(await statusesWith(8)).toBe(first);
    expect(await statusesWith(9)).not.toBe(first);
  });

  it('errorRate 1 answers every API route 500/502/503, and never the /sandbox routes', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i += 1) {
      const response = await api(sandbox, 'GET', '/api/v1/users', token);
      expect([500, 502, 503]).toContain(response.status);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      statuses.add(response.status);
    }
    expect(statuses.size).toBeGreaterThan(1);
    expect([500, 502, 503]).toContain((await requestToken(sandbox, 'public')).status);
    expect((await fetch(`${sandbox.url}/sandbox/stats`)).status).toBe(200);
    expect((await fetch(`${sandbox.url}/sandbox/users/alice%40example.org`)).status).toBe(200);
  });

  it('rateLimit 2: the third request of a burst gets 429 with Retry-After in seconds', async () => {
    sandbox.setFaults({ rateLimit: 2 });
    const responses = [];
    for (let i = 0; i < 3; i += 1) responses.push(await listPage(sandbox, 'per_page=1'));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 429]);
    const retryAfter = responses[2]?.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(1);
    // The inspection routes are never limited.
    expect((await fetch(`${sandbox.url}/sandbox/stats`)).status).toBe(200);
  });

  it('accepts requests again once Retry-After has passed, and not a moment before', async () => {
    sandbox.setFaults({ rateLimit: 1 });
    expect((await listPage(sandbox, 'per_page=1')).status).toBe(200);
    const limited = await listPage(sandbox, 'per_page=1');
    expect(limited.status).toBe(429);
    const retryAfterSeconds = Number(limited.headers.get('retry-after'));
    sandbox.advanceClock(retryAfterSeconds - 0.001);
    expect((await listPage(sandbox, 'per_page=1')).status).toBe(429);
    sandbox.advanceClock(0.001);
    expect((await listPage(sandbox, 'per_page=1')).status).toBe(200);
  });

  it('says when to retry as an HTTP date (a client that waits until then is accepted), or not at all, per variant', async () => {
    sandbox.setFaults({ rateLimit: 1 });
    sandbox.setVariants({ retryAfter: 'http-date' });
    await listPage(sandbox, 'per_page=1');
    const dated = await listPage(sandbox, 'per_page=1');
    expect(dated.status).toBe(429);
    const header = dated.headers.get('retry-after') ?? '';
    expect(header).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    // Whole seconds, rounded up: between the one-second window and one second more.
    const waitMs = Date.parse(header) - sandbox.now();
    expect(waitMs).toBeGreaterThanOrEqual(1000);
    expect(waitMs).toBeLessThan(2000);
    sandbox.advanceClock(waitMs / 1000);
    expect((await listPage(sandbox, 'per_page=1')).status).toBe(200);

    sandbox.setVariants({ retryAfter: 'none' });
    const silent = await listPage(sandbox, 'per_page=1');
    expect(silent.status).toBe(429);
    expect(silent.headers.get('retry-after')).toBeNull();
  });

  it('dropRate 1 cuts the connection: fetch rejects', async () => {
    sandbox.setFaults({ dropRate: 1 });
    await expect(api(sandbox, 'GET', '/api/v1/users', token)).rejects.toThrow();
    await expect(requestToken(sandbox, 'public')).rejects.toThrow();
    expect((await fetch(`${sandbox.url}/sandbox/`)).status).toBe(200);
    sandbox.setFaults({ dropRate: 0 });
    expect((await api(sandbox, 'GET', '/api/v1/users', token)).status).toBe(200);
  });

  it('latencyMs delays API answers', async () => {
    sandbox.setFaults({ latencyMs: 300 });
    const started = performance.now();
    const response = await api(sandbox, 'GET', '/api/v1/users', token);
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    // Lower bound only (timer granularity aside): the delay is the purpose of this fault.
    expect(elapsed).toBeGreaterThanOrEqual(280);
  });

  it('PUT /sandbox/faults changes faults and variants, flat or nested, and refuses bad input', async () => {
    const put = (body: unknown): Promise<Response> =>
      fetch(`${sandbox.url}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const flat = await put({ errorRate: 0.5, listBody: 'bare-array' });
    expect(flat.status).toBe(200);
    expect(await flat.json()).toMatchObject({ faults: { errorRate: 0.5 }, variants: { listBody: 'bare-array' } });
    const nested = await put({ faults: { errorRate: 0 }, variants: { logoutErrorStatus: 422 } });
    expect(await nested.json()).toMatchObject({ faults: { errorRate: 0 }, variants: { listBody: 'bare-array', logoutErrorStatus: 422 } });
    for (const bad of [{ errorRate: 2 }, { listBody: 'xml' }, { logoutErrorStatus: 500 }, { nonsense: true }, { rateLimit: -1 }]) {
      const response = await put(bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/Invalid/);
    }
    const current = (await (await fetch(`${sandbox.url}/sandbox/faults`)).json()) as { variants: { listBody: string } };
    expect(current.variants.listBody).toBe('bare-array');
  });

  it('setFaults refuses invalid values without changing anything', () => {
    expect(() => sandbox.setFaults({ errorRate: -0.1 })).toThrow(/errorRate/);
    expect(() => sandbox.setVariants({ perPageCap: 0 })).toThrow(/perPageCap/);
  });
});
