import { z } from 'zod';
import type { ErrorCode, Outcome } from './errors';
import type { MessageText } from './message-text';
import { msg, wordInEnglish } from './messages';

export const LOGOUT_ALGORITHMS = ['HS256', 'HS384', 'HS512'] as const;
export type LogoutAlgorithm = (typeof LOGOUT_ALGORITHMS)[number];

/** Deliberately broken tokens for the logout tester: each one the service must refuse. */
export const NEGATIVE_CASES = ['wrong-secret', 'alg-none', 'expired', 'missing-sub', 'wrong-aud'] as const;
export type NegativeCase = (typeof NEGATIVE_CASES)[number];

/**
 * What a logout token may carry. A logout names a user and nothing more, so these are small on purpose;
 * they also keep a crafted request (5,000 levels of nesting, a 1 MB audience) a validation error.
 */
export const LOGOUT_LIMITS = {
  audienceLength: 256,
  jtiLength: 256,
  extraClaimCount: 20,
  claimNameLength: 64,
  /** Levels of objects or arrays inside one claim's value. */
  claimDepth: 4,
  /** Values of all kinds inside the extra claims, counted before anything is serialised. */
  claimValueCount: 500,
  /** The extra claims as JSON, in UTF-8 bytes. */
  extraClaimsBytes: 4096,
  /** Lifetime of a token (exp - iat): ten years at most. */
  lifetimeSeconds: 315_360_000,
  /** iat in Unix seconds: up to the year 2100. */
  issuedAtSeconds: 4_102_444_800,
} as const;

/**
 * Claims a single sign-on would read as who the user is or what they may do. The service's JWT sign-on shares
 * the logout tokens' secret, so a token signed for a live service never carries them (compared ignoring case).
 */
export const IDENTITY_CLAIMS = [
  'email',
  'email_verified',
  'name',
  'given_name',
  'family_name',
  'nickname',
  'preferred_username',
  'username',
  'uid',
  'role',
  'roles',
  'admin',
  'is_admin',
  'groups',
  'permissions',
  'scope',
  'scp',
] as const;

/** The extra claims a sign-on would read as identity (see IDENTITY_CLAIMS), as they were written. */
export function identityClaimsIn(extraClaims: Record<string, unknown> | undefined): string[] {
  const identity: readonly string[] = IDENTITY_CLAIMS;
  return Object.keys(extraClaims ?? {}).filter((name) => identity.includes(name.toLowerCase()));
}

/** Prototype names would change the claims object itself when merged; they are never claims. */
const RESERVED_CLAIM_NAMES = ['__proto__', 'constructor', 'prototype'];

/** The first way the extra claims are too big or too deep (a claims.* message), or undefined; walks without recursion, and stops early. */
export function extraClaimsProblem(claims: Record<string, unknown>): MessageText | undefined {
  const names = Object.keys(claims);
  if (names.length > LOGOUT_LIMITS.extraClaimCount) return msg('claims.tooMany', { max: LOGOUT_LIMITS.extraClaimCount, count: names.length });
  for (const name of names) {
    if (name.length === 0 || name.length > LOGOUT_LIMITS.claimNameLength) return msg('claims.nameLength', { max: LOGOUT_LIMITS.claimNameLength });
    if (RESERVED_CLAIM_NAMES.includes(name)) return msg('claims.reservedName', { name });
  }
  const pending: { value: unknown; depth: number }[] = names.map((name) => ({ value: claims[name], depth: 0 }));
  let counted = 0;
  while (pending.length > 0) {
    const { value, depth } = pending.pop() as { value: unknown; depth: number };
    counted += 1;
    if (counted > LOGOUT_LIMITS.claimValueCount) return msg('claims.tooManyValues', { max: LOGOUT_LIMITS.claimValueCount });
    if (value === null || typeof value !== 'object') continue;
    if (depth >= LOGOUT_LIMITS.claimDepth) return msg('claims.tooDeep', { max: LOGOUT_LIMITS.claimDepth });
    for (const child of Object.values(value)) pending.push({ value: child, depth: depth + 1 });
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(claims);
  } catch {
    return msg('claims.notPlainJson');
  }
  const bytes = new TextEncoder().encode(json ?? '').length;
  if (bytes > LOGOUT_LIMITS.extraClaimsBytes) return msg('claims.tooBig', { bytes, max: LOGOUT_LIMITS.extraClaimsBytes });
  return undefined;
}

export const logoutOptionsSchema = z.object({
  /** Defaults to the profile's application name. */
  audience: z.string().min(1).max(LOGOUT_LIMITS.audienceLength).optional(),
  algorithm: z.enum(LOGOUT_ALGORITHMS).default('HS256'),
  /** Unix seconds; defaults to now. */
  issuedAt: z.number().int().min(0).max(LOGOUT_LIMITS.issuedAtSeconds).optional(),
  /** Lifetime in seconds from issuedAt; no `exp` claim when absent. */
  expiresInSeconds: z.number().int().positive().max(LOGOUT_LIMITS.lifetimeSeconds).optional(),
  /** Defaults to a random UUID. */
  jti: z.string().min(1).max(LOGOUT_LIMITS.jtiLength).optional(),
  extraClaims: z
    .record(z.string(), z.unknown())
    .default({})
    .superRefine((claims, context) => {
      const problem = extraClaimsProblem(claims);
      if (problem) context.addIssue({ code: 'custom', message: wordInEnglish(problem), params: { text: problem } });
    }),
  /** Adds the OIDC back-channel logout `events` claim. */
  includeEvents: z.boolean().default(false),
  negativeCase: z.enum(NEGATIVE_CASES).optional(),
});
export type LogoutOptions = z.input<typeof logoutOptionsSchema>;

/** Why logout options were refused, as the first problem's message: an extra-claims rule's own, else what its field accepts. */
export function logoutOptionsProblem(error: z.ZodError): MessageText {
  const issue = error.issues[0];
  const own = (issue as { params?: { text?: MessageText } } | undefined)?.params?.text;
  if (own) return own;
  switch (issue?.path[0]) {
    case 'audience':
      return msg('option.audience', { max: LOGOUT_LIMITS.audienceLength });
    case 'algorithm':
      return msg('option.algorithm');
    case 'issuedAt':
      return msg('option.issuedAt', { max: LOGOUT_LIMITS.issuedAtSeconds });
    case 'expiresInSeconds':
      return msg('option.expiresIn', { max: LOGOUT_LIMITS.lifetimeSeconds });
    case 'jti':
      return msg('option.jti', { max: LOGOUT_LIMITS.jtiLength });
    case 'extraClaims':
      return msg('claims.notObject');
    case 'includeEvents':
      return msg('option.events');
    case 'negativeCase':
      return msg('option.negativeCase');
    default:
      return msg('option.other');
  }
}

/** Stands in for the signature of a token built for a live (non-loopback) service: the signed token never leaves the core. */
export const WITHHELD_SIGNATURE = 'signature-withheld';

export interface BuiltLogoutToken {
  /** The compact token; for a live service `header.payload.signature-withheld` (see WITHHELD_SIGNATURE). */
  token: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** True when the signature is replaced by the placeholder (every profile that is not on this computer). */
  signatureWithheld?: boolean;
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
  /** Each thing wrong with the token, as a verify.* message (shared/messages/token.ts): the window words it in its language. Empty when valid. */
  problemTexts: MessageText[];
  /** The same problems in English, as the CLI prints them (token verify, --json). */
  problems: string[];
}

/**
 * What a logout test proves, the window's tester and the CLI's --negative alike. Only the service judging the token
 * is conclusive: a readable 2xx (done) or a refusal of the token itself (LOGOUT_REJECTED). Everything else — not sent,
 * a network error, a timeout, a 5xx, a 429, an unknown application, a redirect, an unreadable answer, a 2xx whose body
 * says it failed — says nothing certain about the token: inconclusive, never counted as the service failing (or
 * passing) the test.
 */
export type LogoutVerdict = 'as-expected' | 'not-as-expected' | 'inconclusive';

/**
 * How the service treated a logout token, in one word the tester, its history and the CLI share:
 * - accepted: a readable 2xx (outcome done);
 * - refused: a refusal of the token itself (LOGOUT_REJECTED, a 4xx);
 * - says-failed: a 2xx whose body says the logout failed or was refused ({"success": false}, an "error" member…):
 *   the status says success, the body says otherwise, so whether sessions ended cannot be told from the answer —
 *   and sending it again gets the same answer;
 * - answered: an answer that is not a judgement of the token (a 5xx, a 429, an unknown application, a redirect,
 *   a 2xx that cannot be read);
 * - no-answer: nothing came back (not sent, a network error, a timeout).
 */
export type LogoutAnswer = 'accepted' | 'refused' | 'says-failed' | 'answered' | 'no-answer';

/** What a logout call came to: a LogoutResult, or the error a failed send raised (its outcome, code and status). */
export interface LogoutReply {
  outcome: Outcome;
  errorCode?: ErrorCode | undefined;
  status?: number | undefined;
  /** The answer's body: parsed JSON when it was JSON, else its text. */
  body?: unknown;
}

export interface LogoutJudgement {
  answer: LogoutAnswer;
  verdict: LogoutVerdict;
}

export function logoutAnswer(reply: LogoutReply): LogoutAnswer {
  if (reply.outcome === 'done') return 'accepted';
  if (reply.outcome === 'refused' && reply.errorCode === 'LOGOUT_REJECTED') return 'refused';
  if (reply.status === undefined) return 'no-answer';
  // core/service/logout-outcome.ts: a 2xx whose JSON says failure is UNEXPECTED_RESPONSE, outcome unknown; a 2xx it cannot read as JSON keeps its text.
  const success = reply.status >= 200 && reply.status < 300;
  const readJson = typeof reply.body === 'object' && reply.body !== null;
  if (success && reply.outcome === 'unknown' && reply.errorCode === 'UNEXPECTED_RESPONSE' && readJson) return 'says-failed';
  return 'answered';
}

export function judgeLogout(testCase: 'valid' | NegativeCase, reply: LogoutReply): LogoutJudgement {
  const answer = logoutAnswer(reply);
  if (answer !== 'accepted' && answer !== 'refused') return { answer, verdict: 'inconclusive' };
  return { answer, verdict: (answer === 'accepted') === (testCase === 'valid') ? 'as-expected' : 'not-as-expected' };
}

export function logoutVerdict(testCase: 'valid' | NegativeCase, reply: LogoutReply): LogoutVerdict {
  return judgeLogout(testCase, reply).verdict;
}
