/** Public types of the sandbox. `server.ts` re-exports them; other parts import from there. */
import type { RateLimitWindow } from './rate-limiter';
import type { UidRequest } from './uid-requests';
import type { LogoutLapse } from './logout-lapses';

export type { RateLimitWindow } from './rate-limiter';

export type { LoggedAct, UidRequest } from './uid-requests';

export interface SandboxFaults {
  /** Added to every answer of the API routes, in milliseconds. */
  latencyMs: number;
  /** Share (0..1) of API requests answered 500/502/503. */
  errorRate: number;
  /** Share (0..1) of API requests whose connection is cut without an answer, before anything is done. */
  dropRate: number;
  /**
   * Share (0..1) of anonymise and delete requests that take effect, then have their connection cut
   * before the answer goes out: the client cannot know it was done, and a retry meets a 404.
   */
  lostAnswerRate: number;
  /** 0 = off; more than N API requests within one second get 429. */
  rateLimit: number;
  /** How that second is counted: the last 1,000 ms ('sliding'), or the calendar second ('fixed': 429s wait for the next one). */
  rateLimitWindow: RateLimitWindow;
}

export interface SandboxVariants {
  listBody: 'success-data' | 'bare-array' | 'users-key' | 'data-meta';
  paginationHeaders: boolean;
  perPageCap: number;
  tokenCreatedAt: boolean;
  /** 'success-false', 'error-200': a 200 whose body says the erasure failed; the user is left as it was. */
  erasureResponse: 'json' | 'empty-200' | '204' | 'success-false' | 'error-200';
  /** 'error-200': an unknown uid is answered 200 with an error body instead of 404. */
  notFoundBody: 'json' | 'empty' | 'error-200';
  unauthorizedBody: 'empty' | 'json';
  /** 200: a refused token is answered 200 with the error body. */
  logoutErrorStatus: 400 | 422 | 200;
  /** 'success-false': a valid token is answered 200 {"success": false} and no session ends. */
  logoutSuccessBody: 'json' | 'empty' | 'success-false';
  retryAfter: 'seconds' | 'http-date' | 'none';
  /** The logout token checks skipped (sandbox/logout-lapses.ts); [] keeps every rule. */
  logoutLapses: readonly LogoutLapse[];
}

export interface SandboxOptions {
  /** 0 or undefined = a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Seeded users, default 500. */
  users?: number;
  /** Default 1; the same seed gives the same users. */
  seed?: number;
  /** Default 7200. */
  tokenTtlSeconds?: number;
  /**
   * Seeds the random faults (errorRate, dropRate, lostAnswerRate): the same seed and the same requests in the same
   * order meet the same faults, so a test of a fault rate does not depend on luck. Default: Math.random.
   */
  faultSeed?: number;
  /** Keeps state across restarts (atomic writes: temp file + rename). */
  dataFile?: string;
  apiKey?: string;
  apiSecret?: string;
  applicationName?: string;
  faults?: Partial<SandboxFaults>;
  variants?: Partial<SandboxVariants>;
  /** No request logging; default true for startSandbox. */
  quiet?: boolean;
  /** Where request log lines go when not quiet; default console.log. */
  log?: (line: string) => void;
  /**
   * The sandbox's clock, in milliseconds since the epoch; default Date.now.
   * Token expiry, rate-limit windows, logout-token iat/exp checks and new
   * records' dates read it. Tests pass their own (or use advanceClock) rather
   * than wait for time to pass.
   */
  now?: () => number;
}

export interface SandboxCredentials {
  apiKey: string;
  apiSecret: string;
  applicationName: string;
}

export interface SandboxStats {
  tokenRequests: { authentication: number; public: number; failed: number };
  apiRequests: number;
  logoutRequests: number;
}

export interface RunningSandbox {
  url: string;
  credentials: SandboxCredentials;
  stats(): SandboxStats;
  setFaults(f: Partial<SandboxFaults>): void;
  setVariants(v: Partial<SandboxVariants>): void;
  /** The sandbox's current time, in milliseconds since the epoch. */
  now(): number;
  /** Moves the sandbox's clock forward (tokens expire, rate-limit windows pass); never back. */
  advanceClock(seconds: number): void;
  reset(): Promise<void>;
  /** Every access token this sandbox issued since it started (in process only, no route): tests assert none leaks. */
  issuedTokens(): string[];
  /**
   * The anonymise, delete and logout requests for this uid that reached their route (past the
   * faults), oldest first, at most the last MAX_REQUESTS_PER_UID; cleared by reset. Also in
   * GET /sandbox/users/{uid} as `requests`.
   */
  requestLog(uid: string): UidRequest[];
  close(): Promise<void>;
}

/** A user exactly as the service's list returns it (docs/SERVICE-API.md#user-record). */
export interface ServiceUser {
  id: number;
  uid: string | null;
  hash_id: string;
  slug: string;
  full_name: string | null;
  email: string | null;
  image_url: string | null;
  description: string | null;
  level: { id: number; name: string; icon_url: string };
  score: number;
  points: number;
  created_at: string;
  last_activity: string | null;
  messages_count: number;
  votes_count: number;
  age: number | null;
  city: string | null;
  occupation: string | null;
  interests: string | null;
}

export interface SandboxSession {
  id: string;
  createdAt: string;
}

/** A user with what the service keeps beside the public record. */
export interface StoredUser {
  record: ServiceUser;
  state: 'active' | 'anonymized';
  messageIds: number[];
  voteIds: number[];
  sessions: SandboxSession[];
}

export type UserLifecycleState = 'active' | 'anonymized' | 'deleted';
