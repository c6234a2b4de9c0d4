import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';

export type Scope = 'authentication' | 'public';

const INVALID = 'The access token is invalid';
const EXPIRED = 'The access token expired';

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Doorkeeper's 401: empty body (observed) or JSON (variant), and the WWW-Authenticate header either way: docs/SERVICE-API.md#refused-tokens. */
export function sendUnauthorized(ctx: SandboxContext, reply: FastifyReply, description: string = INVALID): FastifyReply {
  reply
    .code(401)
    .header('www-authenticate', `Bearer realm="Doorkeeper", error="invalid_token", error_description="${description}"`);
  if (ctx.config.variants.unauthorizedBody === 'json') return reply.send({ error: 'invalid_token', error_description: description });
  return reply.send();
}

/** Doorkeeper's 403 for a token without the route's scope: empty body, no WWW-Authenticate. */
export function sendForbidden(ctx: SandboxContext, reply: FastifyReply, scope: Scope): FastifyReply {
  reply.code(403);
  if (ctx.config.variants.unauthorizedBody === 'json') {
    return reply.send({ error: 'insufficient_scope', error_description: `This action needs a token with the "${scope}" scope.` });
  }
  return reply.send();
}

/**
 * Checks the bearer token for a scope. Scopes are separate: an
 * `authentication` token cannot list users and a `public` one cannot erase.
 * Returns false after having answered 401/403.
 */
export function authorize(ctx: SandboxContext, request: FastifyRequest, reply: FastifyReply, scope: Scope): boolean {
  const token = bearerToken(request);
  const issued = token === undefined ? undefined : ctx.state.findToken(token);
  if (!issued) {
    sendUnauthorized(ctx, reply, INVALID);
    return false;
  }
  if (issued.expiresAtMs <= ctx.clock.now()) {
    sendUnauthorized(ctx, reply, EXPIRED);
    return false;
  }
  if (!issued.scopes.includes(scope)) {
    sendForbidden(ctx, reply, scope);
    return false;
  }
  return true;
}
