import { base64url, compactVerify, decodeProtectedHeader, type ProtectedHeaderParameters } from 'jose';
import type { SandboxContext } from './context';
import { MAX_IAT_AGE_SECONDS, MAX_IAT_SKEW_SECONDS, MAX_LOGOUT_TOKEN_BYTES, type LogoutLapse } from './logout-lapses';
import type { LogoutReplayMemory } from './logout-replay';

const ALGORITHMS = ['HS256', 'HS384', 'HS512'];
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

export class LogoutRefused extends Error {}

/** What a token that passed says: whose sessions end (none without `sub`), and its `jti` to remember. */
export interface AcceptedLogout {
  subject?: string;
  jti?: string;
  expSeconds?: number;
}

function joseReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The logout token signature does not match: sign it with the secret key of this application.';
    case 'ERR_JOSE_NOT_SUPPORTED':
      return `The logout token header names a critical extension this service does not understand (crit): ${(error as Error).message}.`;
    default:
      return 'The logout token is not a valid signed JWT.';
  }
}

function payloadOf(token: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1] ?? '')));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // refused below
  }
  throw new LogoutRefused('The logout token is not a valid JWT (its claims are not a JSON object).');
}

/** The signature and header rules; resolves to the claims. A lapse skips its rule (sandbox/logout-lapses.ts). */
async function checkedClaims(token: string, ctx: SandboxContext, skips: (lapse: LogoutLapse) => boolean): Promise<Record<string, unknown>> {
  let header: ProtectedHeaderParameters;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw new LogoutRefused('The logout token is not a valid JWT (it must be three base64url parts separated by dots).');
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || alg.toLowerCase() === 'none') {
    if (skips('alg-none')) return payloadOf(token);
    throw new LogoutRefused(`The logout token algorithm "${typeof alg === 'string' ? alg : 'missing'}" is not accepted: use HS256, HS384 or HS512.`);
  }
  if (!ALGORITHMS.includes(alg)) {
    if (skips('other-alg')) return payloadOf(token);
    throw new LogoutRefused(`The logout token algorithm "${alg}" is not accepted: use HS256, HS384 or HS512.`);
  }
  // jose refuses a "crit" it was not told about (RFC 7515 §4.1.11); the lapse tells it every name is understood.
  const crit = skips('crit') && Array.isArray(header.crit) ? Object.fromEntries(header.crit.map((name) => [name, false])) : undefined;
  try {
    await compactVerify(token, new TextEncoder().encode(ctx.credentials.apiSecret), { algorithms: ALGORITHMS, ...(crit ? { crit } : {}) });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (!(code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' && skips('signature'))) throw new LogoutRefused(joseReason(error));
  }
  return payloadOf(token);
}

/** Every reason a back-channel logout token is refused, in words; what it says when it passes. */
export async function verifyLogoutToken(token: string, ctx: SandboxContext, replays: LogoutReplayMemory): Promise<AcceptedLogout> {
  const lapses: readonly LogoutLapse[] = ctx.config.variants.logoutLapses;
  const skips = (lapse: LogoutLapse): boolean => lapses.includes(lapse);
  if (new TextEncoder().encode(token).length > MAX_LOGOUT_TOKEN_BYTES && !skips('size')) {
    throw new LogoutRefused(`The logout token is too large: at most ${MAX_LOGOUT_TOKEN_BYTES} bytes.`);
  }
  const claims = await checkedClaims(token, ctx, skips);
  const nowS = ctx.clock.now() / 1000;
  const { exp, nbf, iat, sub, aud, iss, jti, events } = claims;
  if (exp !== undefined && (typeof exp !== 'number' || (exp <= nowS && !skips('exp')))) {
    throw new LogoutRefused(typeof exp === 'number' ? 'The logout token has expired (its exp claim is in the past).' : 'The logout token has an invalid claim: exp must be a number.');
  }
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowS)) throw new LogoutRefused('The logout token is not valid yet (nbf).');
  if (iat !== undefined && typeof iat !== 'number') throw new LogoutRefused('The logout token has an invalid claim: iat must be a number.');
  if (sub !== undefined && (typeof sub !== 'string' || sub === '')) throw new LogoutRefused('The logout token has no sub claim: it must carry the uid of the user to log out.');
  if (sub === undefined && !skips('sub-required')) throw new LogoutRefused('The logout token has no sub claim: it must carry the uid of the user to log out.');
  if (typeof iat === 'number' && iat > nowS + MAX_IAT_SKEW_SECONDS && !skips('future-iat')) {
    throw new LogoutRefused('The logout token was issued in the future (iat): check the clock of the machine that signed it.');
  }
  if (typeof iat === 'number' && iat < nowS - MAX_IAT_AGE_SECONDS && !skips('old-iat')) {
    throw new LogoutRefused(`The logout token was issued too long ago (iat more than ${MAX_IAT_AGE_SECONDS} s in the past).`);
  }
  const accepted = [ctx.credentials.applicationName, ctx.credentials.apiKey];
  if (aud !== undefined && !skips('aud')) {
    const audiences = Array.isArray(aud) ? aud : [aud];
    if (!audiences.some((one) => typeof one === 'string' && accepted.includes(one))) {
      throw new LogoutRefused('The logout token audience (aud) is not this application: use the application name or the API key.');
    }
  }
  // The service names no issuer; a token without iss passes, one naming another issuer does not.
  if (iss !== undefined && !skips('iss') && !(typeof iss === 'string' && accepted.includes(iss))) {
    throw new LogoutRefused('The logout token issuer (iss) is not this application: use the application name or the API key.');
  }
  if (!skips('events')) {
    const member = events && typeof events === 'object' ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT] : undefined;
    if (!member || typeof member !== 'object' || Array.isArray(member)) {
      throw new LogoutRefused(`The logout token has no events claim with the member "${BACKCHANNEL_LOGOUT_EVENT}".`);
    }
  }
  if ('nonce' in claims && !skips('nonce')) throw new LogoutRefused('The logout token carries a nonce claim: a logout token must not.');
  if ((typeof jti !== 'string' || jti === '') && !skips('jti-required')) throw new LogoutRefused('The logout token has no jti claim (its unique identifier).');
  if (typeof jti === 'string' && !skips('replay') && replays.seen(jti)) throw new LogoutRefused('The logout token was already used (its jti was received before).');
  return {
    ...(typeof sub === 'string' ? { subject: sub } : {}),
    ...(typeof jti === 'string' && jti !== '' ? { jti } : {}),
    ...(typeof exp === 'number' ? { expSeconds: exp } : {}),
  };
}

/** The uids whose sessions a logout for `subject` ends: that uid, or with 'sub-ignore-case' every active uid equal to it ignoring case. */
export function uidsToLogOut(subject: string, ctx: SandboxContext): string[] {
  if (!ctx.config.variants.logoutLapses.includes('sub-ignore-case')) return [subject];
  const folded = subject.toLowerCase();
  const uids = ctx.state
    .allUsers()
    .filter((user) => user.state === 'active' && typeof user.record.uid === 'string' && user.record.uid.toLowerCase() === folded)
    .map((user) => user.record.uid as string);
  return uids.includes(subject) ? uids : [subject, ...uids];
}
