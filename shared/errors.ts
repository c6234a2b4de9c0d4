import { z } from 'zod';

/**
 * Stable error codes. They are part of the CLI's output contract
 * (`CODE: message` on stderr) and of the bridge, so never rename one.
 */
export const ERROR_CODES = [
  'INVALID_CREDENTIALS',
  'INSUFFICIENT_SCOPE',
  'UNAUTHORIZED',
  'NOT_FOUND',
  'APPLICATION_NOT_FOUND',
  'LOGOUT_REJECTED',
  'RATE_LIMITED',
  'SERVER_ERROR',
  'NETWORK',
  'TIMEOUT',
  'TLS',
  'INVALID_INPUT',
  'UNEXPECTED_RESPONSE',
  'TOKEN_INVALID',
  'CONFIRMATION_MISMATCH',
  'CANCELLED',
  'PROFILE_NOT_FOUND',
  'PROFILE_STORE_CORRUPT',
  'KEYCHAIN_UNAVAILABLE',
  'AUDIT_WRITE_FAILED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * How every act (anonymise, delete, logout) ends, as a field rather than prose:
 * - not-sent: refused before any request left (validation, confirmation, credentials, audit);
 * - refused: the service answered and changed nothing (4xx, a 401 after the one token refresh);
 * - done: a 2xx with a readable success;
 * - unknown: the request may have reached the service and its effect is not known
 *   (timeout, cut connection, 5xx, a 2xx whose body cannot be read).
 * The batch runner retries not-sent items and re-checks unknown ones, so never guess "done".
 */
export const OUTCOMES = ['not-sent', 'refused', 'done', 'unknown'] as const;
export type Outcome = (typeof OUTCOMES)[number];

// What an error code means when whoever raised it did not say: codes raised before any
// request are not-sent; the service's own refusals are refused; the rest cannot be known.
const OUTCOME_OF_CODE: Record<ErrorCode, Outcome> = {
  INVALID_CREDENTIALS: 'refused',
  INSUFFICIENT_SCOPE: 'refused',
  UNAUTHORIZED: 'refused',
  NOT_FOUND: 'refused',
  APPLICATION_NOT_FOUND: 'refused',
  LOGOUT_REJECTED: 'refused',
  RATE_LIMITED: 'refused',
  SERVER_ERROR: 'unknown',
  NETWORK: 'unknown',
  TIMEOUT: 'unknown',
  TLS: 'not-sent',
  INVALID_INPUT: 'not-sent',
  UNEXPECTED_RESPONSE: 'unknown',
  TOKEN_INVALID: 'not-sent',
  CONFIRMATION_MISMATCH: 'not-sent',
  CANCELLED: 'not-sent',
  PROFILE_NOT_FOUND: 'not-sent',
  PROFILE_STORE_CORRUPT: 'not-sent',
  KEYCHAIN_UNAVAILABLE: 'not-sent',
  // Before the act: nothing is sent without its record. After it, the gate says the act's own outcome.
  AUDIT_WRITE_FAILED: 'not-sent',
  INTERNAL: 'unknown',
};

export function defaultOutcome(code: ErrorCode): Outcome {
  return OUTCOME_OF_CODE[code];
}

export const errorInfoSchema = z.object({
  code: z.enum(ERROR_CODES),
  outcome: z.enum(OUTCOMES),
  message: z.string(),
  status: z.number().int().optional(),
  requestId: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

/** The plain, serialisable form of an error: what crosses the bridge and what the CLI prints. */
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

/** What raises an error: the outcome may be left out when the code's usual meaning holds. */
export type ErrorInit = Omit<ErrorInfo, 'outcome'> & { outcome?: Outcome };

/**
 * The one error family of Privacy Desk. `message` always says what happened
 * and what to do next; it never contains a secret, a token or a header value.
 */
export class PrivacyDeskError extends Error {
  readonly code: ErrorCode;
  readonly outcome: Outcome;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;

  constructor(info: ErrorInit, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'PrivacyDeskError';
    this.code = info.code;
    this.outcome = info.outcome ?? defaultOutcome(info.code);
    this.status = info.status;
    this.requestId = info.requestId;
    this.retryAfterSeconds = info.retryAfterSeconds;
  }

  /** The same error with the outcome the caller knows better (e.g. a token failure before an act left: not-sent). */
  withOutcome(outcome: Outcome): PrivacyDeskError {
    if (outcome === this.outcome) return this;
    return new PrivacyDeskError({ ...this.toInfo(), outcome }, { cause: this.cause });
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, outcome: this.outcome, message: this.message };
    if (this.status !== undefined) info.status = this.status;
    if (this.requestId !== undefined) info.requestId = this.requestId;
    if (this.retryAfterSeconds !== undefined) info.retryAfterSeconds = this.retryAfterSeconds;
    return info;
  }
}

export function isPrivacyDeskError(value: unknown): value is PrivacyDeskError {
  return value instanceof PrivacyDeskError;
}

export function invalidInput(message: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'INVALID_INPUT', message });
}

/** Turns anything thrown into ErrorInfo without leaking what an unknown error carries. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (isPrivacyDeskError(error)) return error.toInfo();
  return {
    code: 'INTERNAL',
    outcome: 'unknown',
    message: 'Something went wrong inside Privacy Desk. Try again; if it persists, report it with the steps that led here.',
  };
}
