import type { FastifyInstance, FastifyReply } from 'fastify';
import { decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { SandboxContext } from '../context';
import { markUidRequest } from '../uid-requests';

const ALGORITHMS = ['HS256', 'HS384', 'HS512'];
/** How far in the future `iat` may be (clock skew between the client and the service). */
const MAX_IAT_SKEW_SECONDS = 60;

class LogoutRefused extends Error {}

function fieldOf(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
}

function joseReason(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The logout token signature does not match: sign it with the secret key of this application.';
    case 'ERR_JWT_EXPIRED':
      return 'The logout token has expired (its exp claim is in the past).';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The logout token algorithm is not accepted: use HS256, HS384 or HS512.';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return `The logout token has an invalid claim: ${(error as Error).message}.`;
    default:
      return 'The logout token is not a valid signed JWT.';
  }
}

/** The `sub` the token claims, before any check: a refused logout is still logged under its uid. */
function claimedSubject(token: string): string | undefined {
  try {
    const sub = decodeJwt(token).sub;
    return typeof sub === 'string' && sub !== '' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** Every reason a back-channel logout token is refused, in words; resolves to the `sub` when valid. */
async function verifiedSubject(token: string, ctx: SandboxContext): Promise<string> {
  let alg: unknown;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    throw new LogoutRefused('The logout token is not a valid JWT (it must be three base64url parts separated by dots).');
  }
  if (typeof alg !== 'string' || !ALGORITHMS.includes(alg)) {
    const shown = typeof alg === 'string' ? alg : 'missing';
    throw new LogoutRefused(`The logout token algorithm "${shown}" is not accepted: use HS256, HS384 or HS512.`);
  }
  const now = ctx.clock.now();
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(ctx.credentials.apiSecret), { algorithms: ALGORITHMS, currentDate: new Date(now) }));
  } catch (error) {
    throw new LogoutRefused(joseReason(error));
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') {
    throw new LogoutRefused('The logout token has no sub claim: it must carry the uid of the user to log out.');
  }
  if (typeof payload.iat === 'number' && payload.iat > now / 1000 + MAX_IAT_SKEW_SECONDS) {
    throw new LogoutRefused('The logout token was issued in the future (iat): check the clock of the machine that signed it.');
  }
  if (payload.aud !== undefined) {
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    const accepted = [ctx.credentials.applicationName, ctx.credentials.apiKey];
    if (!audiences.some((aud) => accepted.includes(aud))) {
      throw new LogoutRefused('The logout token audience (aud) is not this application: use the application name or the API key.');
    }
  }
  return payload.sub;
}

export function registerLogoutRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.post<{ Params: { applicationName: string } }>('/auth/logout/:applicationName', async (request, reply) => {
    if (request.params.applicationName !== ctx.credentials.applicationName) {
      return reply.code(404).send({ success: false, error: 'Application not found' });
    }
    const refuse = (description: string): FastifyReply =>
      reply.code(ctx.config.variants.logoutErrorStatus).send({ error: 'invalid_request', error_description: description });

    const token = fieldOf(request.body, 'logout_token');
    if (typeof token !== 'string' || token.trim() === '') {
      return refuse('The logout_token field is missing: send it as an application/x-www-form-urlencoded form field.');
    }
    const claimed = claimedSubject(token.trim());
    if (claimed !== undefined) markUidRequest(request, claimed, 'logout');
    let subject: string;
    try {
      subject = await verifiedSubject(token.trim(), ctx);
    } catch (error) {
      if (error instanceof LogoutRefused) return refuse(error.message);
      throw error;
    }
    // Same answer whether or not a user matched: the service does not reveal who exists.
    if (ctx.config.variants.logoutSuccessBody === 'success-false') return reply.code(200).send({ success: false });
    ctx.state.logout(subject);
    if (ctx.config.variants.logoutSuccessBody === 'empty') return reply.code(200).send();
    return reply.code(200).send({ success: true });
  });
}
