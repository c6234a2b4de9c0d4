import { errorText, PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';

/** Longest single wait between two list attempts; a longer Retry-After ends the retries instead. */
export const MAX_RETRY_WAIT_MS = 60_000;
const BASE_DELAY_MS = 500;

/**
 * Reads a Retry-After header: delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns whole seconds from `nowMs`, or undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // An HTTP date always names a month; this keeps Date.parse from reading "-5" as a year.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * Exponential backoff with full jitter (attempt 0 = first retry), never
 * shorter than what the service asked for, never longer than the cap.
 */
export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_WAIT_MS, BASE_DELAY_MS * 2 ** attempt);
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  return Math.min(MAX_RETRY_WAIT_MS, Math.max(jittered, asked));
}

/** Failures a call already repeated as far as it would: a call around it does not repeat them again (tokens). */
const settled = new WeakSet<object>();

/** Marks a failure as final: it was already asked again as often as allowed, so retries around it stop. */
export function asSettled<T extends object>(error: T): T {
  settled.add(error);
  return error;
}

/** The failures after which repeating a SAFE (read-only) request can help. */
export function isRetryable(error: unknown): error is PrivacyDeskError {
  if (!(error instanceof PrivacyDeskError) || settled.has(error)) return false;
  return error.code === 'NETWORK' || error.code === 'TIMEOUT' || error.code === 'SERVER_ERROR' || error.code === 'RATE_LIMITED';
}

export interface RetryOptions {
  maxRetries: number;
  sleep: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * The most the whole call may take, attempts and waits together, on `now`'s clock. No retry
   * starts that could not finish within it, and each attempt is told what is left (to cap its timeout).
   */
  budget?: { totalMs: number; now: () => number; what?: 'list-page' | 'token' };
}

export interface AttemptContext {
  /** Milliseconds left of the call's budget (Infinity without one): an attempt's request timeout should not exceed it. */
  remainingMs: number;
}

/**
 * Runs a read-only operation, repeating it on retryable failures. Never use
 * it for anonymise or delete: repeating those blindly is not safe.
 */
export async function withRetry<T>(operation: (context: AttemptContext) => Promise<T>, options: RetryOptions): Promise<T> {
  const { budget } = options;
  const started = budget?.now() ?? 0;
  const remaining = () => (budget ? budget.totalMs - (budget.now() - started) : Infinity);
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation({ remainingMs: remaining() });
    } catch (error) {
      if (!isRetryable(error) || attempt >= options.maxRetries) throw error;
      // A service that asks for a longer pause than we are willing to wait gets its answer, not a premature retry.
      if (error.retryAfterSeconds !== undefined && error.retryAfterSeconds * 1000 > Math.min(MAX_RETRY_WAIT_MS, remaining())) throw error;
      const delay = retryDelayMs(attempt, error.retryAfterSeconds, options.random);
      // Waiting and trying again would overrun the call's budget: stop now and say so.
      // An inner call that already gave up for its own budget is said once, as it is, not wrapped again.
      if (budget && delay >= remaining()) throw isGaveUp(error) ? error : budgetSpent(error, attempt + 1, budget.now() - started, budget.totalMs, budget.what);
      await options.sleep(delay);
    }
  }
}

/**
 * The call gave up: its code and outcome are the last attempt's (a cut connection is NETWORK, a silent service
 * TIMEOUT, a 5xx SERVER_ERROR), so what happened is said, and the words say the limit it gave up at.
 */
function budgetSpent(last: PrivacyDeskError, attempts: number, elapsedMs: number, totalMs: number, what: 'list-page' | 'token' = 'list-page'): PrivacyDeskError {
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  return new PrivacyDeskError({
    code: last.code,
    outcome: last.outcome,
    status: last.status,
    requestId: last.requestId,
    text: msg(what === 'token' ? 'http.gaveUpToken' : 'http.gaveUp', { count: attempts, elapsed: seconds(elapsedMs), limit: seconds(totalMs), last: errorText(last) }),
    ...(last.quote ? { quote: last.quote } : {}),
  });
}

function isGaveUp(error: PrivacyDeskError): boolean {
  return error.text?.id === 'http.gaveUp' || error.text?.id === 'http.gaveUpToken';
}

export const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
