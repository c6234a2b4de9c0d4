import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { withRetry } from '../retry';
import { createServiceClient } from './service-client';
import type { FetchLike } from '../types';

const profile = { id: 'p', name: 'City portal', baseUrl: 'https://debate.example', applicationName: 'city portal' };
const credentials = { apiKey: 'key-0123456789', apiSecret: 'secret-0123456789abcdef' };

describe('withRetry within a time budget (hand-moved clock)', () => {
  it('stops before a retry that could not finish in time, with a TIMEOUT that says how long it tried', async () => {
    let clock = 0;
    let attempts = 0;
    const remainders: number[] = [];
    const run = withRetry(
      async ({ remainingMs }) => {
        attempts += 1;
        remainders.push(remainingMs);
        clock += 30_000; // each attempt takes a full 30 s timeout
        throw new PrivacyDeskError({ code: 'TIMEOUT', text: msg('http.timeout', { host: 'debate.example', seconds: 30, purpose: msg('purpose.listUsers', { page: 1 }) }) });
      },
      { maxRetries: 3, random: () => 1, sleep: async (ms) => void (clock += ms), budget: { totalMs: 60_000, now: () => clock } },
    );
    const error = await run.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toMatch(/^Gave up after 2 attempts in 60\.5 s: a page of the list is asked for again for up to 60 s\. The last attempt: No answer from debate\.example/);
    expect(attempts).toBe(2);
    // The second attempt is told what is left, so its timeout can be cut to fit.
    expect(remainders).toEqual([60_000, 29_500]);
    expect(clock).toBeLessThanOrEqual(61_000);
  });

  it('without a budget, behaves as before: maxRetries + 1 attempts', async () => {
    let attempts = 0;
    await expect(
      withRetry(
        async () => {
          attempts += 1;
          throw new PrivacyDeskError({ code: 'NETWORK', message: 'down' });
        },
        { maxRetries: 3, sleep: async () => {} },
      ),
    ).rejects.toMatchObject({ code: 'NETWORK' });
    expect(attempts).toBe(4);
  });

  it('a Retry-After longer than what is left of the budget is answered at once with the rate limit', async () => {
    let clock = 0;
    const run = withRetry(
      async () => {
        throw new PrivacyDeskError({ code: 'RATE_LIMITED', message: 'limited', retryAfterSeconds: 20 });
      },
      { maxRetries: 3, sleep: async (ms) => void (clock += ms), budget: { totalMs: 10_000, now: () => clock } },
    );
    await expect(run).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    expect(clock).toBe(0);
  });
});

describe('users list against a service that never answers (fake timers: nobody waits)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Tokens come at once; the users list never answers until aborted. */
  function silentService() {
    let listAttempts = 0;
    const fetch: FetchLike = (input, init) => {
      if (String(input).endsWith('/oauth/token')) {
        return Promise.resolve(new Response(JSON.stringify({ access_token: 'tok-abcdef123', expires_in: 7200, created_at: Math.floor(Date.now() / 1000) }), { status: 200 }));
      }
      listAttempts += 1;
      return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    };
    return { fetch, attempts: () => listAttempts };
  }

  it('gives up within twice the request timeout (not four full timeouts), as TIMEOUT', async () => {
    const service = silentService();
    const client = createServiceClient({ profile, credentials, fetch: service.fetch, timeoutMs: 30_000 });
    const settled = client.listUsers({ page: 1, perPage: 10 }).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(60_000);
    const error = await Promise.race([settled, Promise.resolve('still waiting')]);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toMatch(/^Gave up after 2 attempts in 60 s: .*No answer from debate\.example within 29\.[5-8] s while listing users \(page 1\)/);
    expect(service.attempts()).toBe(2);
  });

  it('a shorter timeout shortens the whole call (what the CLI’s --timeout sets)', async () => {
    const service = silentService();
    const client = createServiceClient({ profile, credentials, fetch: service.fetch, timeoutMs: 5_000 });
    const settled = client.listUsers().then(
      () => 'answered',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await Promise.race([settled, Promise.resolve('still waiting')])).toMatchObject({ code: 'TIMEOUT' });
  });
});
