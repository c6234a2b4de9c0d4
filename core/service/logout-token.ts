import { base64url, compactVerify, errors as joseErrors, SignJWT } from 'jose';
import { invalidInput } from '../../shared/errors';
import { LOGOUT_ALGORITHMS, logoutOptionsSchema, type BuiltLogoutToken, type LogoutAlgorithm, type LogoutOptions, type TokenVerification } from '../../shared/logout';
import { assertValidUid } from '../input-problems';
import { parseBoundedJson } from '../bounded-json';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** The service refuses an iat further ahead than this (clock tolerance). */
const FUTURE_IAT_TOLERANCE_S = 60;

export interface LogoutTokenContext {
  apiSecret: string;
  apiKey: string;
  applicationName: string;
  /** Milliseconds. */
  now: () => number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Builds the back-channel logout token (docs/SERVICE-API.md#back-channel-logout): a JWT signed with the
 * secret key whose `sub` is the uid. Negative cases build deliberately
 * broken tokens for the tester; each must be refused by the service.
 */
export async function buildLogoutToken(uid: string, options: LogoutOptions | undefined, context: LogoutTokenContext): Promise<BuiltLogoutToken> {
  assertValidUid(uid);
  const parsed = logoutOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : '';
    throw invalidInput(`The logout token options are not valid${where}: ${issue?.message ?? 'unknown problem'}. Correct them and try again.`);
  }
  const opts = parsed.data;
  if ('sub' in opts.extraClaims) {
    throw invalidInput('Extra claims cannot set “sub”: the subject is always the uid you entered. Remove “sub” from the extra claims.');
  }
  const nowS = Math.floor(context.now() / 1000);
  const iat = opts.issuedAt ?? nowS;
  const claims: Record<string, unknown> = { iat, aud: opts.audience ?? context.applicationName, jti: opts.jti ?? crypto.randomUUID() };
  if (opts.expiresInSeconds !== undefined) claims.exp = iat + opts.expiresInSeconds;
  if (opts.includeEvents) claims.events = { [BACKCHANNEL_LOGOUT_EVENT]: {} };
  Object.assign(claims, opts.extraClaims);
  claims.sub = uid;

  let signingSecret: Uint8Array = encoder.encode(context.apiSecret);
  switch (opts.negativeCase) {
    case 'wrong-secret':
      signingSecret = crypto.getRandomValues(new Uint8Array(64));
      break;
    case 'expired':
      claims.iat = nowS - 7200;
      claims.exp = nowS - 3600;
      break;
    case 'missing-sub':
      delete claims.sub;
      break;
    case 'wrong-aud':
      claims.aud = `not-${context.applicationName}`;
      break;
    case 'alg-none':
    case undefined:
      break;
  }
  if (opts.negativeCase === 'alg-none') {
    // jose will not produce alg "none" with a plain header, so build the unsigned token by hand.
    const header = { alg: 'none', typ: 'JWT' };
    const token = `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(claims))}.`;
    return { token, header, claims };
  }
  const header = { alg: opts.algorithm, typ: 'JWT' };
  const token = await new SignJWT(claims).setProtectedHeader(header).sign(signingSecret);
  return { token, header, claims };
}

/**
 * Explains a logout token in plain words: decodes it even when the
 * signature is wrong, then lists every reason the service would refuse it.
 */
export async function verifyLogoutToken(jwt: string, context: LogoutTokenContext): Promise<TokenVerification> {
  const token = jwt.trim();
  const parts = token.split('.');
  if (parts.length !== 3) {
    return {
      valid: false,
      problems: [`The token is malformed: a JWT has three parts separated by dots (header.claims.signature); this one has ${parts.length}. Paste the whole token.`],
    };
  }
  const header = decodePart(parts[0] ?? '');
  const claims = decodePart(parts[1] ?? '');
  const problems: string[] = [];
  if (!header) problems.push('The token is malformed: its header (first part) is not base64url-encoded JSON, or is nested too deeply to read.');
  if (!claims) problems.push('The token is malformed: its claims (second part) are not base64url-encoded JSON, or are nested too deeply to read.');
  if (header) problems.push(...(await signatureProblems(token, header, context)));
  if (claims) problems.push(...claimProblems(claims, context));
  const result: TokenVerification = { valid: problems.length === 0, problems };
  if (header) result.header = header;
  if (claims) result.claims = claims;
  return result;
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    // Bounded: claims nested thousands deep would overflow the stack wherever they are shown.
    const parsed = parseBoundedJson(decoder.decode(base64url.decode(part)));
    const value = parsed.ok ? parsed.value : undefined;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function signatureProblems(token: string, header: Record<string, unknown>, context: LogoutTokenContext): Promise<string[]> {
  const alg = header.alg;
  if (typeof alg !== 'string' || alg === '') return ['The header has no “alg”: the service cannot tell how the token is signed.'];
  if (alg.toLowerCase() === 'none') return ['The token is not signed (alg “none”): the service refuses unsigned tokens. Sign it with the secret key (HS256).'];
  if (!(LOGOUT_ALGORITHMS as readonly string[]).includes(alg)) {
    return [`The algorithm “${alg}” is not accepted: sign with the secret key using HS256 (or HS384 / HS512).`];
  }
  try {
    await compactVerify(token, encoder.encode(context.apiSecret), { algorithms: [alg as LogoutAlgorithm] });
    return [];
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      return ['The signature does not match: the token was signed with a different secret than this profile’s secret key, or it was changed after signing.'];
    }
    return ['The token is malformed: its signature part could not be read.'];
  }
}

function claimProblems(claims: Record<string, unknown>, context: LogoutTokenContext): string[] {
  const problems: string[] = [];
  const nowS = Math.floor(context.now() / 1000);
  if (!('sub' in claims)) problems.push('There is no “sub” claim: the service needs the user’s uid there to know whose sessions to end.');
  else if (typeof claims.sub !== 'string' || claims.sub === '') problems.push('The “sub” claim must be the user’s uid as a non-empty string.');
  if ('exp' in claims) {
    if (typeof claims.exp !== 'number') problems.push('The “exp” claim is not a number of seconds: the service cannot read when the token expires.');
    else if (claims.exp <= nowS) problems.push(`The token expired at ${isoOf(claims.exp)} (${duration(nowS - claims.exp)} ago).`);
  }
  if ('iat' in claims) {
    if (typeof claims.iat !== 'number') problems.push('The “iat” claim is not a number of seconds.');
    else if (claims.iat > nowS + FUTURE_IAT_TOLERANCE_S) {
      problems.push(`The token is issued in the future (${isoOf(claims.iat)}, ${duration(claims.iat - nowS)} ahead). Check this computer’s clock.`);
    }
  }
  if (typeof claims.nbf === 'number' && claims.nbf > nowS + FUTURE_IAT_TOLERANCE_S) problems.push(`The token is not valid before ${isoOf(claims.nbf)}.`);
  if ('aud' in claims) {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const accepted = [context.applicationName, context.apiKey];
    if (!audiences.some((aud) => typeof aud === 'string' && accepted.includes(aud))) {
      const shown = audiences.map((aud) => (typeof aud === 'string' ? `“${aud}”` : JSON.stringify(aud))).join(', ');
      problems.push(`The audience ${shown} is neither the application name “${context.applicationName}” nor this profile’s API key.`);
    }
  }
  return problems;
}

function isoOf(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}
