import { MAX_RETRY_WAIT_MS } from '../retry';

export interface SendPacer {
  /** Waits for this request's turn: after any hold the service asked for, and spaced by the current interval. */
  turn(signal?: AbortSignal): Promise<void>;
  /** A 429: hold every sender for Retry-After (or a backoff when it said nothing) and space requests out more. */
  rateLimited(retryAfterSeconds: number | undefined): void;
  /** An answer that was not a 429: relax the spacing a little. */
  answered(): void;
  /** Seconds left of the hold the service asked for (0 when none). */
  holdSeconds(): number;
}

export interface PacerClock {
  now: () => number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const FIRST_INTERVAL_MS = 50;
const MAX_INTERVAL_MS = 2_000;
const NO_RETRY_AFTER_HOLD_MS = 1_000;

/**
 * One limiter shared by every sender of a run, so a 429 slows the whole run down and not
 * only the item that met it: everyone waits out the Retry-After (seconds or an HTTP date,
 * already read into seconds by the HTTP layer), then requests leave spaced out; the spacing
 * doubles on each 429 and shrinks as answers come back without one.
 */
export function createSendPacer({ now, sleep }: PacerClock): SendPacer {
  let holdUntil = 0;
  let intervalMs = 0;
  let nextAt = 0;
  return {
    async turn(signal) {
      for (;;) {
        if (signal?.aborted) return;
        const wait = Math.max(holdUntil, nextAt) - now();
        if (wait <= 0) break;
        await sleep(wait, signal);
      }
      nextAt = now() + intervalMs;
    },
    rateLimited(retryAfterSeconds) {
      const holdMs = retryAfterSeconds === undefined ? NO_RETRY_AFTER_HOLD_MS : Math.min(MAX_RETRY_WAIT_MS, retryAfterSeconds * 1000);
      holdUntil = Math.max(holdUntil, now() + holdMs);
      intervalMs = Math.min(MAX_INTERVAL_MS, intervalMs === 0 ? FIRST_INTERVAL_MS : intervalMs * 2);
    },
    answered() {
      intervalMs = intervalMs < 5 ? 0 : intervalMs * 0.95;
    },
    holdSeconds() {
      return Math.max(0, Math.ceil((holdUntil - now()) / 1000));
    },
  };
}

/** A sleep that wakes early on abort (the run's cancel). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
