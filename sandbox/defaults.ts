import type { SandboxFaults, SandboxVariants } from './types';
import { DEFAULT_LOGOUT_LAPSES } from './logout-lapses';

/**
 * SANDBOX-ONLY credentials. They are public, documented values so that every
 * developer and test can reach a local sandbox; they are never valid anywhere
 * else. The secret is exactly 64 characters because HS512 wants a key of at
 * least 64 bytes.
 */
export const SANDBOX_ONLY_API_KEY = 'sandbox-api-key';
export const SANDBOX_ONLY_API_SECRET = 'sandbox-secret-key-0123456789abcdef0123456789abcdef0123456789abc';
export const SANDBOX_ONLY_APPLICATION_NAME = 'sandbox-app';

export const SANDBOX_DEFAULTS = {
  apiKey: SANDBOX_ONLY_API_KEY,
  apiSecret: SANDBOX_ONLY_API_SECRET,
  applicationName: SANDBOX_ONLY_APPLICATION_NAME,
  port: 4600,
  users: 500,
  seed: 1,
  tokenTtlSeconds: 7200,
} as const satisfies {
  apiKey: string;
  apiSecret: string;
  applicationName: 'sandbox-app';
  port: 4600;
  users: 500;
  seed: 1;
  tokenTtlSeconds: 7200;
};

/** Faults are off by default: the sandbox behaves like a healthy service. */
export const DEFAULT_FAULTS: SandboxFaults = { latencyMs: 0, errorRate: 0, dropRate: 0, lostAnswerRate: 0, rateLimit: 0, rateLimitWindow: 'sliding' };

/** The real service's observed behaviour: docs/SERVICE-API.md#sandbox-variants. */
export const DEFAULT_VARIANTS: SandboxVariants = {
  listBody: 'success-data',
  paginationHeaders: true,
  perPageCap: 100,
  tokenCreatedAt: true,
  erasureResponse: 'json',
  notFoundBody: 'json',
  unauthorizedBody: 'empty',
  logoutErrorStatus: 400,
  logoutSuccessBody: 'json',
  retryAfter: 'seconds',
  logoutLapses: DEFAULT_LOGOUT_LAPSES,
};

export const DEFAULT_PER_PAGE = 10;
