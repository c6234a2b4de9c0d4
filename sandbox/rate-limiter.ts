/** Where a one-second window of the rate limit starts. */
export const RATE_LIMIT_WINDOWS = ['sliding', 'fixed'] as const;
export type RateLimitWindow = (typeof RATE_LIMIT_WINDOWS)[number];

/**
 * At most `limit` accepted requests a second, counted either over the last 1,000 ms ('sliding') or
 * per calendar second from floor(now / 1000) * 1000 ('fixed', how rack-attack's throttle counts:
 * a burst of 2 × limit can pass across a window's edge). One list of acceptance times serves both,
 * so switching kinds while running keeps what was already accepted.
 */
export class RateLimiter {
  private accepted: number[] = [];

  /** Undefined when accepted; otherwise the milliseconds until a request would be accepted. */
  take(limit: number, now: number, window: RateLimitWindow = 'sliding'): number | undefined {
    // Older than a second counts in neither kind: a fixed window started less than a second ago.
    this.accepted = this.accepted.filter((t) => t > now - 1000);
    if (window === 'fixed') {
      const windowStart = Math.floor(now / 1000) * 1000;
      const inWindow = this.accepted.filter((t) => t >= windowStart).length;
      return this.accept(inWindow < limit, now) ? undefined : windowStart + 1000 - now;
    }
    return this.accept(this.accepted.length < limit, now) ? undefined : (this.accepted[0] ?? now) + 1000 - now;
  }

  clear(): void {
    this.accepted = [];
  }

  private accept(allowed: boolean, now: number): boolean {
    if (allowed) this.accepted.push(now);
    return allowed;
  }
}
