import { MAX_RETRY_WAIT_MS } from '../retry';
import { AnswerCounter } from './answer-counter';

export interface SendPacer {
  /** Before a request is admitted (its records written): waits out any hold the service asked for; returns when it was let go. */
  turn(signal?: AbortSignal): Promise<number>;
  /** Right before it leaves: waits for its slot, one interval after the previous request's, at the learned pace. */
  slot(signal?: AbortSignal): Promise<void>;
  /** A 429 for the request let go at `sentAt`: everyone holds for Retry-After; the first 429 of an episode lowers the pace. */
  rateLimited(sentAt: number, retryAfterSeconds: number | undefined): void;
  /** An answer other than 429 (the request passed the service's limiter): counted to learn the rate it accepts. */
  answered(): void;
  /** Seconds left of the hold the service asked for (0 when none). */
  holdSeconds(): number;
  /** The pace kept now, in requests a second; undefined while no 429 has been met (no pacing). */
  ratePerSecond(): number | undefined;
}

export interface PacerClock {
  now: () => number;
  /** Resolves after `ms`, or early when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The pace is kept this far under the rate the service accepted before it said "too many". */
const UNDER_THE_LIMIT = 0.97;
/**
 * After this long without a 429 the pace creeps up: the limit may have been raised, shared with a client that stopped,
 * or learned from a window another client had half used (a fixed window then lets fewer through than its limit).
 */
const QUIET_BEFORE_PROBING_MS = 30_000;
/** How much it creeps up each second of probing, times the seconds probed so far: 1 %, 2 %, 3 %… */
const PROBE_STEP = 0.01;
/** Without Retry-After, the hold of a per-second window (the common one). */
const NO_RETRY_AFTER_HOLD_MS = 1_000;
/** The pace never falls under this, so a run always makes progress. */
const SLOWEST_RATE = 0.2;

/**
 * One pacer shared by every sender of a run, so a 429 slows the whole run and not only the item
 * that met it. It learns the service's rate instead of guessing it:
 * - Until the first 429 nothing is paced.
 * - A 429 opens an episode: everyone holds for its Retry-After (seconds or an HTTP date, read into
 *   seconds by the HTTP layer; a second when absent), and the pace becomes 97 % of the answers the
 *   service accepted in the second before it (halved when it accepted none). The other 429s of
 *   the same burst (requests let go before the episode opened) hold too but lower nothing more:
 *   one decrease per episode, not one per request in flight.
 * - Requests then leave one interval apart (1 / pace), never in a burst, so neither a sliding
 *   one-second window nor a fixed one is overrun. The interval is kept right before a request
 *   leaves, after its records are written: a slow write delays the requests behind it, and they
 *   must not then leave together; after 30 s without a 429 the pace creeps up 1 %
 *   a second until the next episode (additive increase, multiplicative decrease).
 */
export function createSendPacer({ now, sleep }: PacerClock): SendPacer {
  const accepted = new AnswerCounter();
  let rate = Infinity;
  let holdUntil = 0;
  let nextAt = 0;
  let episodeAt = -Infinity;
  let lastProbeAt = -Infinity;
  let probes = 0;
  const intervalMs = () => (Number.isFinite(rate) ? 1000 / rate : 0);

  /** Slow at first, a limit just above the pace is met after a small step; faster the longer it goes on, a pace far too low recovers in a minute, not in hours. */
  function probe(at: number) {
    if (!Number.isFinite(rate) || at - Math.max(episodeAt, holdUntil) < QUIET_BEFORE_PROBING_MS || at - lastProbeAt < 1000) return;
    probes += 1;
    rate *= 1 + PROBE_STEP * probes;
    lastProbeAt = at;
  }

  return {
    async turn(signal) {
      for (;;) {
        const at = now();
        if (signal?.aborted || holdUntil <= at) return at;
        await sleep(holdUntil - at, signal);
      }
    },
    async slot(signal) {
      const at = now();
      probe(at);
      // Each request takes the next slot, so requests admitted together (one journal write) still leave one interval apart;
      // one admitted just before a 429 came waits out its hold too.
      const slotAt = Math.max(at, nextAt, holdUntil);
      nextAt = slotAt + intervalMs();
      if (slotAt > at) await sleep(slotAt - at, signal);
    },
    rateLimited(sentAt, retryAfterSeconds) {
      const at = now();
      const holdMs = retryAfterSeconds === undefined ? NO_RETRY_AFTER_HOLD_MS : Math.min(MAX_RETRY_WAIT_MS, retryAfterSeconds * 1000);
      holdUntil = Math.max(holdUntil, at + holdMs);
      if (sentAt <= episodeAt) return; // let go before this episode opened: the same burst
      episodeAt = at;
      probes = 0;
      const acceptedLastSecond = accepted.inLastSecond(at);
      const learned = acceptedLastSecond > 0 ? acceptedLastSecond * UNDER_THE_LIMIT : rate / 2;
      // Met before any answer was counted, nothing is learned: the rate stays unpaced (Infinity) and the hold alone acts.
      rate = Math.max(SLOWEST_RATE, Math.min(rate * UNDER_THE_LIMIT, learned));
    },
    answered() {
      accepted.add(now());
    },
    holdSeconds() {
      return Math.max(0, Math.ceil((holdUntil - now()) / 1000));
    },
    ratePerSecond() {
      return Number.isFinite(rate) ? rate : undefined;
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
