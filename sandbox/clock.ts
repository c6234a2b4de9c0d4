/** Longest single jump forward: ten years, more than any token, window or test needs. */
export const MAX_CLOCK_ADVANCE_SECONDS = 10 * 366 * 86_400;

/**
 * The sandbox's sense of time: a base clock (the wall clock unless a test
 * injects its own) plus however far tests moved it forward. Token expiry,
 * rate-limit windows, logout-token `iat`/`exp` checks and new records' dates
 * all read it, so a test makes time pass by advancing it, never by sleeping.
 * It only moves forward: a reset does not turn it back.
 */
export class SandboxClock {
  #advancedMs = 0;

  constructor(private readonly base: () => number = Date.now) {}

  /** Milliseconds since the epoch, as the sandbox sees them. */
  now(): number {
    return this.base() + this.#advancedMs;
  }

  /** How far tests have moved the clock, in milliseconds. */
  get advancedMs(): number {
    return this.#advancedMs;
  }

  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_CLOCK_ADVANCE_SECONDS) {
      throw new Error(`The sandbox clock moves forward by 0 to ${MAX_CLOCK_ADVANCE_SECONDS} seconds (got ${seconds}).`);
    }
    this.#advancedMs += Math.round(seconds * 1000);
  }
}
