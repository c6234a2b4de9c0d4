import { z } from 'zod';
import type { ErrorCode, Outcome } from './errors';

export const LOGOUT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type LogoutAlgorithm = (typeof LOGOUT_ALGORITHMS)[number];

/** Deliberately broken tokens for the logout tester: each one the service must refuse. */
export const NEGATIVE_CASES = ['wrong-secret', 'alg-none', 'expired', 'missing-sub', 'wrong-aud'] as const;
export type NegativeCase = (typeof NEGATIVE_CASES)[number];

export const logoutOptionsSchema = z.object({
  /** Defaults to the profile's application name. */
  audience: z.string().min(1).optional(),
  algorithm: z.enum(LOGOUT_ALGORITHMS).default('HS256'),
  /** Unix seconds; defaults to now. */
  issuedAt: z.number().int().optional(),
  /** Lifetime in seconds from issuedAt; no `exp` claim when absent. */
  expiresInSeconds: z.number().int().positive().optional(),
  /** Defaults to a random UUID. */
  jti: z.string().min(1).optional(),
  extraClaims: z.record(z.string(), z.unknown()).default({}),
  /** Adds the OIDC back-channel logout `events` claim. */
  includeEvents: z.boolean().default(false),
  negativeCase: z.enum(NEGATIVE_CASES).optional(),
});
export type LogoutOptions = z.input<typeof logoutOptionsSchema>;

export interface BuiltLogoutToken {
  token: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

export interface LogoutResult extends BuiltLogoutToken {
  uid: string;
  /** done for a 2xx; refused for a 4xx or 429; unknown for a 5xx (sessions may or may not have ended). */
  outcome: Outcome;
  /** Why it was not done, as the error family names it (LOGOUT_REJECTED, RATE_LIMITED…). */
  errorCode?: ErrorCode;
  status: number;
  ok: boolean;
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, otherwise the text ('' when empty). */
  body: unknown;
  elapsedMs: number;
  requestId?: string;
}

export interface TokenVerification {
  valid: boolean;
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  /** Each thing wrong with the token, in words an operator understands. Empty when valid. */
  problems: string[];
}

/** What the service should answer to each negative case: a refusal, never a 200. */
export const NEGATIVE_CASE_EXPECTATION: Record<NegativeCase, string> = {
  'wrong-secret': 'refused: signature does not match',
  'alg-none': 'refused: unsigned tokens are not accepted',
  expired: 'refused: token has expired',
  'missing-sub': 'refused: no subject (uid) in the token',
  'wrong-aud': 'refused: audience is not this application',
};
