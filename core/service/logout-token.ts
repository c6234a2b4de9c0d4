import { base64url, compactVerify, errors as joseErrors, SignJWT } from 'jose';
import { invalidInput } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { durationText, msg, wordInEnglish } from '../../shared/messages';
import { LOGOUT_ALGORITHMS, logoutOptionsProblem, logoutOptionsSchema, type BuiltLogoutToken, type LogoutAlgorithm, type LogoutOptions, type TokenVerification } from '../../shared/logout';
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
  if (!parsed.success) throw invalidInput(msg('logoutOptions.invalid', { problem: logoutOptionsProblem(parsed.error) }));
  const opts = parsed.data;
  if ('sub' in opts.extraClaims) {
    throw invalidInput(msg('logoutOptions.subInClaims'));
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
 * Explains a logout token in plain words: decodes it even when the signature is wrong, then lists every
 * reason the service would refuse it, each a verify.* message (the CLI prints them in English).
 */
export async function verifyLogoutToken(jwt: string, context: LogoutTokenContext): Promise<TokenVerification> {
  const token = jwt.trim();
  const parts = token.split('.');
  if (parts.length !== 3) return verification([msg('verify.partCount', { parts: parts.length })]);
  const header = decodePart(parts[0] ?? '');
  const claims = decodePart(parts[1] ?? '');
  const problems: MessageText[] = [];
  if (!header) problems.push(msg('verify.headerNotJson'));
  if (!claims) problems.push(msg('verify.claimsNotJson'));
  if (header) problems.push(...(await signatureProblems(token, header, context)));
  if (claims) problems.push(...claimProblems(claims, context));
  const result = verification(problems);
  if (header) result.header = header;
  if (claims) result.claims = claims;
  return result;
}

function verification(problemTexts: MessageText[]): TokenVerification {
  return { valid: problemTexts.length === 0, problemTexts, problems: problemTexts.map((text) => wordInEnglish(text)) };
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

async function signatureProblems(token: string, header: Record<string, unknown>, context: LogoutTokenContext): Promise<MessageText[]> {
  const alg = header.alg;
  if (typeof alg !== 'string' || alg === '') return [msg('verify.noAlg')];
  if (alg.toLowerCase() === 'none') return [msg('verify.unsigned')];
  if (!(LOGOUT_ALGORITHMS as readonly string[]).includes(alg)) return [msg('verify.algNotAccepted', { alg })];
  try {
    await compactVerify(token, encoder.encode(context.apiSecret), { algorithms: [alg as LogoutAlgorithm] });
    return [];
  } catch (error) {
    return [error instanceof joseErrors.JWSSignatureVerificationFailed ? msg('verify.signatureMismatch') : msg('verify.signatureUnreadable')];
  }
}

function claimProblems(claims: Record<string, unknown>, context: LogoutTokenContext): MessageText[] {
  const problems: MessageText[] = [];
  const nowS = Math.floor(context.now() / 1000);
  if (!('sub' in claims)) problems.push(msg('verify.noSub'));
  else if (typeof claims.sub !== 'string' || claims.sub === '') problems.push(msg('verify.subNotString'));
  if ('exp' in claims) {
    if (typeof claims.exp !== 'number') problems.push(msg('verify.expNotNumber'));
    else if (claims.exp <= nowS) problems.push(msg('verify.expired', { at: isoOf(claims.exp), ago: durationText(nowS - claims.exp) }));
  }
  if ('iat' in claims) {
    if (typeof claims.iat !== 'number') problems.push(msg('verify.iatNotNumber'));
    else if (claims.iat > nowS + FUTURE_IAT_TOLERANCE_S) problems.push(msg('verify.issuedInFuture', { at: isoOf(claims.iat), ahead: durationText(claims.iat - nowS) }));
  }
  if (typeof claims.nbf === 'number' && claims.nbf > nowS + FUTURE_IAT_TOLERANCE_S) problems.push(msg('verify.notYetValid', { at: isoOf(claims.nbf) }));
  if ('aud' in claims) {
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    const accepted = [context.applicationName, context.apiKey];
    if (!audiences.some((aud) => typeof aud === 'string' && accepted.includes(aud))) {
      const audience = audiences.map((aud) => (typeof aud === 'string' ? aud : JSON.stringify(aud))).join(', ');
      problems.push(msg('verify.wrongAudience', { audience, application: context.applicationName }));
    }
  }
  return problems;
}

function isoOf(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString();
}
