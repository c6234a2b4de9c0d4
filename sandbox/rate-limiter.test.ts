import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter';
import { startSandbox, type RunningSandbox } from './server';
import { listPage } from './test-support';

const LIMIT = 3;

describe('the rate limit, sliding or fixed window (over HTTP, on the sandbox clock)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    // The clock stands still unless a test moves it.
    sandbox = await startSandbox({ users: 10, now: () => Date.parse('2026-11-21T12:00:00Z') });
  });
  beforeEach(() => sandbox.reset());
  afterAll(() => sandbox.close());

  /** The reset does not turn the clock back: each test starts `ms` after the next whole second. */
  const moveToNextSecondPlus = (ms: number): number => {
    sandbox.advanceClock((1000 - (sandbox.now() % 1000) + ms) / 1000);
    return sandbox.now();
  };
  const burst = async (count: number): Promise<number[]> => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i += 1) statuses.push((await listPage(sandbox, 'per_page=1')).status);
    return statuses;
  };
  const ok = (count: number): number[] => Array<number>(count).fill(200);

  it('is sliding by default, as GET /sandbox/faults says', async () => {
    const { faults } = (await (await fetch(`${sandbox.url}/sandbox/faults`)).json()) as { faults: Record<string, unknown> };
    expect(faults).toMatchObject({ rateLimit: 0, rateLimitWindow: 'sliding' });
  });

  it('fixed: admits a burst of 2N across a window edge, then refuses until the next window', async () => {
    sandbox.setFaults({ rateLimit: LIMIT, rateLimitWindow: 'fixed' });
    moveToNextSecondPlus(900);
    expect(await burst(LIMIT)).toEqual(ok(LIMIT));
    sandbox.advanceClock(0.1);
    expect(await burst(LIMIT + 1)).toEqual([...ok(LIMIT), 429]);
  });

  it('sliding: refuses the second half of that burst until a second after the first half', async () => {
    sandbox.setFaults({ rateLimit: LIMIT });
    const start = moveToNextSecondPlus(900);
    expect(await burst(LIMIT)).toEqual(ok(LIMIT));
    sandbox.advanceClock(0.1);
    const refused = await listPage(sandbox, 'per_page=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    sandbox.advanceClock((start + 1000 - sandbox.now() - 1) / 1000);
    expect(await burst(1)).toEqual([429]);
    sandbox.advanceClock(0.001);
    expect(await burst(LIMIT + 1)).toEqual([...ok(LIMIT), 429]);
  });

  it('fixed: Retry-After in seconds is 1 (rounded up), and the next window accepts', async () => {
    sandbox.setFaults({ rateLimit: LIMIT, rateLimitWindow: 'fixed' });
    moveToNextSecondPlus(400);
    await burst(LIMIT);
    const refused = await listPage(sandbox, 'per_page=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    sandbox.advanceClock(0.599);
    expect(await burst(1)).toEqual([429]);
    sandbox.advanceClock(0.001);
    expect(await burst(1)).toEqual([200]);
  });

  it.each([
    ['fixed', 900, 1000],
    ['sliding', 900, 2000],
  ] as const)('%s: an HTTP-date Retry-After is the first whole second a request is accepted again', async (window, offset, acceptedAt) => {
    sandbox.setFaults({ rateLimit: LIMIT, rateLimitWindow: window });
    sandbox.setVariants({ retryAfter: 'http-date' });
    const start = moveToNextSecondPlus(offset) - offset;
    await burst(LIMIT);
    sandbox.advanceClock(0.05);
    const refused = await listPage(sandbox, 'per_page=1');
    expect(refused.status).toBe(429);
    expect(Date.parse(refused.headers.get('retry-after') ?? '')).toBe(start + acceptedAt);
    sandbox.advanceClock((start + acceptedAt - sandbox.now()) / 1000);
    expect(await burst(1)).toEqual([200]);
  });

  it('fixed: no Retry-After with the "none" variant', async () => {
    sandbox.setFaults({ rateLimit: 1, rateLimitWindow: 'fixed' });
    sandbox.setVariants({ retryAfter: 'none' });
    moveToNextSecondPlus(0);
    await burst(1);
    const refused = await listPage(sandbox, 'per_page=1');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeNull();
  });

  it('is chosen with PUT /sandbox/faults (flat or nested), refuses other kinds, and goes back to sliding on reset', async () => {
    const put = (body: unknown): Promise<Response> =>
      fetch(`${sandbox.url}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(await (await put({ rateLimit: 5, rateLimitWindow: 'fixed' })).json()).toMatchObject({ faults: { rateLimit: 5, rateLimitWindow: 'fixed' } });
    expect(await (await put({ faults: { rateLimitWindow: 'sliding' } })).json()).toMatchObject({ faults: { rateLimitWindow: 'sliding' } });
    expect((await put({ rateLimitWindow: 'rolling' })).status).toBe(400);
    expect(() => sandbox.setFaults({ rateLimitWindow: 'hourly' as never })).toThrow(/rateLimitWindow/);
    await put({ rateLimitWindow: 'fixed' });
    await sandbox.reset();
    expect(await (await fetch(`${sandbox.url}/sandbox/faults`)).json()).toMatchObject({ faults: { rateLimitWindow: 'sliding' } });
  });
});

describe('RateLimiter', () => {
  it('keeps what was accepted when the kind of window changes', () => {
    const limiter = new RateLimiter();
    expect(limiter.take(2, 10_500, 'sliding')).toBeUndefined();
    expect(limiter.take(2, 10_600, 'sliding')).toBeUndefined();
    expect(limiter.take(2, 10_700, 'fixed')).toBe(300);
    expect(limiter.take(2, 11_000, 'fixed')).toBeUndefined();
    expect(limiter.take(2, 11_000, 'sliding')).toBe(500);
  });
});
