import { randomUUID } from 'node:crypto';
import { base64url, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { anotherUsersUid, type ConformanceCaseId } from '../../shared/logout-conformance';
import { BACKCHANNEL_LOGOUT_EVENT, type LogoutTokenContext } from './logout-token';

/** What a conformance case sends: the token, and whose sub it names (none for the no-sub cases). */
export interface CraftedToken {
  token: string;
  sub?: string;
}

/** Lifetime of the conformance tokens: long enough for a slow service, short enough that a leaked one soon dies. */
const LIFETIME_S = 120;
const DAY_S = 24 * 60 * 60;
/** Bytes of padding in the oversized case: far above any logout token a receiver needs to read. */
const OVERSIZED_PADDING = 64 * 1024;
/** An extension no receiver knows, marked critical in the unknown-crit case. */
const UNKNOWN_CRITICAL = 'urn:privacy-desk:conformance:unknown';
const encoder = new TextEncoder();

/** The claims of a valid logout token for this uid (OIDC Back-Channel Logout 1.0 §2.4), iss and aud the application name. */
function validClaims(uid: string, context: LogoutTokenContext): JWTPayload {
  const iat = Math.floor(context.now() / 1000);
  return {
    iss: context.applicationName,
    sub: uid,
    aud: context.applicationName,
    iat,
    exp: iat + LIFETIME_S,
    jti: randomUUID(),
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}

async function signed(claims: JWTPayload, context: LogoutTokenContext, header: Record<string, unknown> = {}): Promise<string> {
  // jose checks "crit" when signing too: the unknown extension is declared to it as understood, on this side only.
  const crit = Array.isArray(header.crit) ? Object.fromEntries(header.crit.map((name) => [String(name), true])) : undefined;
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', ...header }).sign(encoder.encode(context.apiSecret), crit ? { crit } : undefined);
}

function without(claims: JWTPayload, ...names: string[]): JWTPayload {
  const copy: JWTPayload = { ...claims };
  for (const name of names) delete copy[name];
  return copy;
}

/**
 * The token of one case: a valid token with exactly one rule broken. Each is signed with the profile's secret
 * (but for wrong-secret, alg-none and other-alg), so a refusal can only come from the rule the case breaks.
 */
export async function craftConformanceToken(id: Exclude<ConformanceCaseId, 'replay'>, uid: string, context: LogoutTokenContext): Promise<CraftedToken> {
  const claims = validClaims(uid, context);
  const iat = claims.iat as number;
  const named = (token: string, sub: string | undefined = uid): CraftedToken => (sub === undefined ? { token } : { token, sub });
  switch (id) {
    case 'valid':
      return named(await signed(claims, context));
    case 'wrong-secret':
      return named(await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(crypto.getRandomValues(new Uint8Array(64))));
    case 'alg-none': {
      // jose will not produce alg "none"; the unsigned token is built by hand.
      const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
      return named(`${header}.${base64url.encode(JSON.stringify(claims))}.`);
    }
    case 'other-alg': {
      const { privateKey } = await generateKeyPair('ES256');
      return named(await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'JWT' }).sign(privateKey));
    }
    case 'other-sub': {
      const other = anotherUsersUid(uid);
      return named(await signed({ ...claims, sub: other }, context), other);
    }
    case 'sid-only':
      return named(await signed({ ...without(claims, 'sub'), sid: randomUUID() }, context), undefined);
    case 'no-sub-no-sid':
      return named(await signed(without(claims, 'sub'), context), undefined);
    case 'no-events':
      return named(await signed(without(claims, 'events'), context));
    case 'events-without-member':
      return named(await signed({ ...claims, events: { 'http://schemas.openid.net/event/other': {} } }, context));
    case 'nonce':
      return named(await signed({ ...claims, nonce: randomUUID() }, context));
    case 'future-iat':
      return named(await signed({ ...claims, iat: iat + DAY_S, exp: iat + DAY_S + LIFETIME_S }, context));
    case 'old-iat':
      return named(await signed({ ...claims, iat: iat - DAY_S }, context));
    case 'expired':
      // Issued five minutes ago, expired two minutes ago: past any usual clock tolerance, younger than any iat limit.
      return named(await signed({ ...claims, iat: iat - 300, exp: iat - 120 }, context));
    case 'wrong-aud':
      return named(await signed({ ...claims, aud: `not-${context.applicationName}` }, context));
    case 'wrong-iss':
      return named(await signed({ ...claims, iss: 'https://issuer.invalid/not-this-application' }, context));
    case 'no-jti':
      return named(await signed(without(claims, 'jti'), context));
    case 'oversized':
      return named(await signed({ ...claims, padding: 'x'.repeat(OVERSIZED_PADDING) }, context));
    case 'unknown-crit':
      return named(await signed(claims, context, { crit: [UNKNOWN_CRITICAL], [UNKNOWN_CRITICAL]: true }));
  }
}

/** The replay case's token: a valid one, sent twice. */
export function craftReplayToken(uid: string, context: LogoutTokenContext): Promise<CraftedToken> {
  return craftConformanceToken('valid', uid, context);
}
