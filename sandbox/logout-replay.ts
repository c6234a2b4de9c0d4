/** How many accepted jti values the sandbox remembers at most (the oldest are forgotten first). */
const MAX_REMEMBERED = 100_000;
/** A jti without exp is remembered this long after it was accepted. */
const REMEMBER_WITHOUT_EXP_MS = 24 * 60 * 60 * 1000;

/** The jti values of accepted logout tokens, until their token expires: what a replay check compares with. In memory only. */
export class LogoutReplayMemory {
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  seen(jti: string): boolean {
    const until = this.until.get(jti);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(jti);
    return false;
  }

  remember(jti: string, expSeconds: number | undefined): void {
    this.until.delete(jti);
    this.until.set(jti, expSeconds !== undefined ? expSeconds * 1000 : this.now() + REMEMBER_WITHOUT_EXP_MS);
    if (this.until.size > MAX_REMEMBERED) {
      const oldest = this.until.keys().next().value;
      if (oldest !== undefined) this.until.delete(oldest);
    }
  }

  clear(): void {
    this.until.clear();
  }
}
