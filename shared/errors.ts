import { z } from 'zod';
import { messageTextSchema, type MessageText } from './message-text';
import { msg, wordInEnglish } from './messages';

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
  'BUSY',
  'FILE_WRITE_FAILED',
  'TEAM_STORE_UNAVAILABLE',
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
  // Privacy Desk itself had no room for the request right now (too much of the same work at once): nothing was done.
  BUSY: 'not-sent',
  // A file Privacy Desk writes besides the audit trail (a batch's results, an export, a receipt): about that file only.
  FILE_WRITE_FAILED: 'not-sent',
  // The team's database (team mode) could not be reached or refused the write: nothing is sent without its record there.
  TEAM_STORE_UNAVAILABLE: 'not-sent',
};

export function defaultOutcome(code: ErrorCode): Outcome {
  return OUTCOME_OF_CODE[code];
}

/**
 * Words quoted as they were said, never translated: the service's own description of a failure
 * (secrets cut out), or the system's (an error code such as ECONNREFUSED, a keychain's message).
 */
export const quoteSchema = z.object({ from: z.enum(['service', 'system']), text: z.string() });
export type Quote = z.infer<typeof quoteSchema>;

export const errorInfoSchema = z.object({
  code: z.enum(ERROR_CODES),
  outcome: z.enum(OUTCOMES),
  /** In English, from `text`: what the CLI prints and logs keep. */
  message: z.string(),
  /** What happened and what to do, as a message id and its parameters (shared/messages/): the window words it in its language. */
  text: messageTextSchema.optional(),
  quote: quoteSchema.optional(),
  status: z.number().int().optional(),
  requestId: z.string().optional(),
  retryAfterSeconds: z.number().optional(),
});

/** The plain, serialisable form of an error: what crosses the bridge and what the CLI prints. */
export type ErrorInfo = z.infer<typeof errorInfoSchema>;

/**
 * What raises an error: a message id (`text`), from which the English `message` is worded; or, for the
 * CLI's own errors that never reach the window, an English `message` alone. The outcome may be left
 * out when the code's usual meaning holds.
 */
export type ErrorInit = Omit<ErrorInfo, 'outcome' | 'message' | 'text'> & { outcome?: Outcome } & ({ text: MessageText; message?: string } | { message: string; text?: MessageText });

/** The English sentence of a message, with the quoted words after it (the CLI's `CODE: message`). */
export function englishMessage(text: MessageText, quote?: Quote): string {
  const words = wordInEnglish(text);
  if (!quote) return words;
  return quote.from === 'service' ? `${words} The service said: “${quote.text}”.` : `${words} (${quote.text})`;
}

/**
 * The one error family of Privacy Desk. `text` (and its English `message`) always says what
 * happened and what to do next; neither ever contains a secret, a token or a header value.
 */
export class PrivacyDeskError extends Error {
  readonly code: ErrorCode;
  readonly outcome: Outcome;
  readonly text?: MessageText;
  readonly quote?: Quote;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryAfterSeconds?: number;

  constructor(info: ErrorInit, options?: { cause?: unknown }) {
    super(info.message ?? englishMessage(info.text as MessageText, info.quote), options);
    this.name = 'PrivacyDeskError';
    this.code = info.code;
    this.outcome = info.outcome ?? defaultOutcome(info.code);
    if (info.text !== undefined) this.text = info.text;
    if (info.quote !== undefined) this.quote = info.quote;
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
    if (this.text !== undefined) info.text = this.text;
    if (this.quote !== undefined) info.quote = this.quote;
    if (this.status !== undefined) info.status = this.status;
    if (this.requestId !== undefined) info.requestId = this.requestId;
    if (this.retryAfterSeconds !== undefined) info.retryAfterSeconds = this.retryAfterSeconds;
    return info;
  }
}

export function isPrivacyDeskError(value: unknown): value is PrivacyDeskError {
  return value instanceof PrivacyDeskError;
}

/** INVALID_INPUT, not-sent: a message id, or English alone for the CLI's own checks. */
export function invalidInput(message: MessageText | string): PrivacyDeskError {
  return new PrivacyDeskError(typeof message === 'string' ? { code: 'INVALID_INPUT', message } : { code: 'INVALID_INPUT', text: message });
}

/** What to say of an error: its own message, or what its code always means (an error raised without a message id). */
export function errorText(error: Pick<ErrorInfo, 'code' | 'text'>): MessageText {
  return error.text ?? msg(`code.${error.code}`);
}

/** Turns anything thrown into ErrorInfo without leaking what an unknown error carries. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (isPrivacyDeskError(error)) return error.toInfo();
  const text = msg('code.INTERNAL');
  return { code: 'INTERNAL', outcome: 'unknown', message: wordInEnglish(text), text };
}
