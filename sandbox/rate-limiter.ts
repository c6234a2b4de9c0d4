/** Sliding one-second window: more than `limit` requests within the last second are refused. */
export class RateLimiter {
  private accepted: number[] = [];

  /** Undefined when accepted; otherwise the milliseconds until a request would be accepted. */
  take(limit: number, now: number): number | undefined {
    this.accepted = this.accepted.filter((t) => t > now - 1000);
    if (this.accepted.length < limit) {
      this.accepted.push(now);
      return undefined;
    }
    return (this.accepted[0] ?? now) + 1000 - now;
  }

  clear(): void {
    this.accepted = [];
  }
}
