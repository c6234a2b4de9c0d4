import { describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../shared/errors';
import { MAX_RETRY_WAIT_MS, parseRetryAfter, retryDelayMs, withRetry } from './retry';

const now = Date.parse('2026-11-21T12:00:00Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });
  it('reads an HTTP date as seconds from now', () => {
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('gives undefined for absent or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('grows exponentially with jitter and stays under the cap', () => {
    expect(retryDelayMs(0, undefined, () => 0)).toBe(250);
    expect(retryDelayMs(0, undefined, () => 1)).toBe(500);
    expect(retryDelayMs(3, undefined, () => 1)).toBe(4000);
    expect(retryDelayMs(30, undefined, () => 1)).toBe(MAX_RETRY_WAIT_MS);
  });
  it('waits at least what Retry-After asks', () => {
    expect(retryDelayMs(0, 5, () => 0)).toBe(5000);
    expect(retryDelayMs(0, 3600, () => 0)).toBe(MAX_RETRY_WAIT_MS);
  });
});

describe('withRetry', () => {
  const failure = (code: 'NETWORK' | 'SERVER_ERROR' | 'NOT_FOUND' | 'RATE_LIMITED', retryAfterSeconds?: number) =>
    new PrivacyDeskError({ code, message: code, retryAfterSeconds });

  it('repeats retryable failures, honouring Retry-After, then succeeds', async () => {
    const waits: number[] = [];
    const outcomes = [failure('NETWORK'), failure('RATE_LIMITED', 2)];
    const result = await withRetry(
      async () => {
        const next = outcomes.shift();
        if (next) throw next;
        return 'ok';
      },
      { maxRetries: 3, sleep: async (ms) => void waits.push(ms), random: () => 0 },
    );
    expect(result).toBe('ok');
    expect(waits).toEqual([250, 2000]);
  });

  it('gives up after maxRetries and throws the last failure', async () => {
    let attempts = 0;
    const run = withRetry(
      async () => {
        attempts += 1;
        throw failure('SERVER_ERROR');
      },
      { maxRetries: 2, sleep: async () => {} },
    );
    await expect(run).rejects.toMatchObject({ code: 'SERVER_ERROR' });
    expect(attempts).toBe(3);
  });

  it('does not repeat other failures, nor a 429 asking for longer than the cap', async () => {
    for (const error of [failure('NOT_FOUND'), failure('RATE_LIMITED', 3600), new Error('bug')]) {
      let attempts = 0;
      const run = withRetry(
        async () => {
          attempts += 1;
          throw error;
        },
        { maxRetries: 3, sleep: async () => {} },
      );
      await expect(run).rejects.toBe(error);
      expect(attempts).toBe(1);
    }
  });
});
