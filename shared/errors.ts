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
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorInfoSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  status: z.number().int().optional(),
  requestId: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

/** The plain, serialisable form of an error: what crosses the bridge and what the CLI prints. */
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

/**
 * The one error family of Privacy Desk. `message` always says what happened
 * and what to do next; it never contains a secret, a token or a header value.
 */
export class PrivacyDeskError extends Error {
  readonly code: ErrorCode;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'PrivacyDeskError';
    this.code = info.code;
    this.status = info.status;
    this.requestId = info.requestId;
    this.retryAfterSeconds = info.retryAfterSeconds;
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, message: this.message };
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
    message: 'Something went wrong inside Privacy Desk. Try again; if it persists, report it with the steps that led here.',
  };
}
