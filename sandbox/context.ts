import type { SandboxClock } from './clock';
import type { SandboxConfig } from './config';
import type { RateLimiter } from './rate-limiter';
import type { SandboxState } from './state';
import type { UidRequestLog } from './uid-requests';
import type { LogoutReplayMemory } from './logout-replay';
import type { SandboxCredentials, SandboxStats } from './types';

/** What every route handler needs; built once per running sandbox. */
export interface SandboxContext {
  state: SandboxState;
  config: SandboxConfig;
  credentials: SandboxCredentials;
  tokenTtlSeconds: number;
  stats: SandboxStats;
  rateLimiter: RateLimiter;
  /** Every check of time goes through it, so tests can move it forward. */
  clock: SandboxClock;
  /** The draws of the random faults (error, drop, lost answer): Math.random, or a seeded sequence (SandboxOptions.faultSeed). */
  faultRandom: () => number;
  /** Anonymise, delete and logout requests per uid (sandbox/uid-requests.ts). */
  requestLog: UidRequestLog;
  /** The jti values of accepted logout tokens, for the replay check (sandbox/logout-checks.ts). */
  logoutReplays: LogoutReplayMemory;
  /** Users back to the seed, stats, request log, remembered logout jti values and rate-limit window cleared, faults and variants as at start; the clock is not turned back. */
  reset(): void;
}

export function emptyStats(): SandboxStats {
  return { tokenRequests: { authentication: 0, public: 0, failed: 0 }, apiRequests: 0, logoutRequests: 0 };
}
