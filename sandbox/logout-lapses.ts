/**
 * The logout checks the sandbox can be told to skip, one per rule of a logout token's validation
 * (OpenID Connect Back-Channel Logout 1.0 §2.6, the service's docs, good practice): the logout
 * conformance run (core/service/logout-conformance-*.ts) is tested against a sandbox that keeps
 * every rule and against one that breaks each rule alone.
 */
export const LOGOUT_LAPSES = [
  /** Accepts a token whose signature does not match the secret key (the claims are still read). */
  'signature',
  /** Accepts an unsigned token (alg "none"). */
  'alg-none',
  /** Accepts a token signed with an algorithm other than HS256/HS384/HS512, without checking its signature. */
  'other-alg',
  /** Accepts a header naming a critical extension ("crit") it does not understand. */
  'crit',
  /** Accepts a token without `sub` (nothing ends: it names nobody). */
  'sub-required',
  /** Ends the sessions of every user whose uid equals `sub` ignoring case, not of that exact uid only. */
  'sub-ignore-case',
  /** Accepts a token without the back-channel logout `events` member. */
  'events',
  /** Accepts a token carrying a `nonce`. */
  'nonce',
  /** Accepts an `iat` more than 60 s in the future. */
  'future-iat',
  /** Accepts an `iat` older than MAX_IAT_AGE_SECONDS. */
  'old-iat',
  /** Accepts an `exp` in the past. */
  'exp',
  /** Accepts any `aud`. */
  'aud',
  /** Accepts any `iss`. */
  'iss',
  /** Accepts a token without `jti`. */
  'jti-required',
  /** Accepts a token whose `jti` it accepted before (a replay). */
  'replay',
  /** Accepts a token longer than MAX_LOGOUT_TOKEN_BYTES. */
  'size',
] as const;
export type LogoutLapse = (typeof LOGOUT_LAPSES)[number];

/**
 * What the sandbox skips by default: what it has always done, as docs/SERVICE-API.md#logout-token-rules
 * says ("jti and events are ignored"), so the client's everyday tokens — no events unless asked, no iss —
 * keep passing. `logoutLapses: []` is a sandbox that keeps every rule.
 */
export const DEFAULT_LOGOUT_LAPSES: readonly LogoutLapse[] = ['events', 'nonce', 'old-iat', 'iss', 'jti-required', 'replay', 'size'];

/** An `iat` older than this is refused unless 'old-iat' is skipped (OIDC leaves the range to the receiver). */
export const MAX_IAT_AGE_SECONDS = 600;
/** A token longer than this is refused unless 'size' is skipped. */
export const MAX_LOGOUT_TOKEN_BYTES = 16 * 1024;
/** How far in the future `iat` may be (clock skew between the client and the service). */
export const MAX_IAT_SKEW_SECONDS = 60;

/** Parses --logout-lapses: a comma-separated list of LOGOUT_LAPSES, or "none" for a sandbox that keeps every rule. */
export function parseLogoutLapses(raw: string): LogoutLapse[] {
  if (raw.trim() === 'none') return [];
  const names = raw.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = names.filter((name) => !(LOGOUT_LAPSES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`--logout-lapses takes "none" or a comma-separated list of ${LOGOUT_LAPSES.join(', ')} (got "${raw}").`);
  }
  return [...new Set(names)] as LogoutLapse[];
}
