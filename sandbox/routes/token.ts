import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context';

const KNOWN_SCOPES = ['authentication', 'public'] as const;
/** Doorkeeper's default scope when the request names none. */
const DEFAULT_SCOPE = 'public';

// Doorkeeper's own wording, so the client meets the real messages.
const ERRORS = {
  invalid_request: 'The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.',
  unsupported_grant_type: 'The authorization grant type is not supported by the authorization server.',
  invalid_client:
    'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  invalid_scope: 'The requested scope is invalid, unknown, or malformed.',
} as const;

type TokenError = keyof typeof ERRORS;

export function tokenFields(body: unknown): Record<string, string | undefined> {
  if (!body || typeof body !== 'object') return {};
  const fields: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value;
  return fields;
}

/** The scopes a token request asks for (missing = Doorkeeper's default), as given. */
export function requestedScopes(body: unknown): string[] {
  const scope = tokenFields(body).scope;
  if (scope === undefined || scope.trim() === '') return [DEFAULT_SCOPE];
  return scope.trim().split(/\s+/);
}

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+(\S+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 2.3.1: both parts are form-urlencoded before base64.
  const decode = (part: string): string => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerTokenRoute(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/oauth/token', async (request, reply) => {
    const fail = (error: TokenError): FastifyReply => {
      ctx.stats.tokenRequests.failed += 1;
      return reply.code(error === 'invalid_client' ? 401 : 400).send({ error, error_description: ERRORS[error] });
    };
    const fields = tokenFields(request.body);
    if (!fields.grant_type) return fail('invalid_request');
    if (fields.grant_type !== 'client_credentials') return fail('unsupported_grant_type');

    // Doorkeeper looks at HTTP Basic first, then at the form fields.
    const client = basicCredentials(request) ?? { id: fields.client_id, secret: fields.client_secret };
    if (!client.id || !client.secret) return fail('invalid_client');
    if (client.id !== ctx.credentials.apiKey || !sameSecret(client.secret, ctx.credentials.apiSecret)) return fail('invalid_client');

    const scopes = requestedScopes(request.body);
    if (!scopes.every((s) => (KNOWN_SCOPES as readonly string[]).includes(s))) return fail('invalid_scope');

    const { token, createdAtMs } = ctx.state.issueToken(scopes, ctx.tokenTtlSeconds, ctx.clock.now());
    const body: Record<string, unknown> = {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ctx.tokenTtlSeconds,
      scope: scopes.join(' '),
    };
    if (ctx.config.variants.tokenCreatedAt) body.created_at = Math.floor(createdAtMs / 1000);
    // RFC 6749 5.1: token responses must not be cached.
    return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
  });
}
