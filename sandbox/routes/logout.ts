import type { FastifyInstance, FastifyReply } from 'fastify';
import { decodeJwt } from 'jose';
import type { SandboxContext } from '../context';
import { LogoutRefused, uidsToLogOut, verifyLogoutToken } from '../logout-checks';
import { markUidRequest } from '../uid-requests';

function fieldOf(body: unknown, name: string): unknown {
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
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
    let accepted: Awaited<ReturnType<typeof verifyLogoutToken>>;
    try {
      accepted = await verifyLogoutToken(token.trim(), ctx, ctx.logoutReplays);
    } catch (error) {
      if (error instanceof LogoutRefused) return refuse(error.message);
      throw error;
    }
    // Same answer whether or not a user matched: the service does not reveal who exists.
    if (ctx.config.variants.logoutSuccessBody === 'success-false') return reply.code(200).send({ success: false });
    if (accepted.jti !== undefined) ctx.logoutReplays.remember(accepted.jti, accepted.expSeconds);
    // A token without sub passes only with the 'sub-required' lapse: it names nobody, so nothing ends.
    if (accepted.subject !== undefined) for (const uid of uidsToLogOut(accepted.subject, ctx)) ctx.state.logout(uid);
    if (ctx.config.variants.logoutSuccessBody === 'empty') return reply.code(200).send();
    return reply.code(200).send({ success: true });
  });
}
