import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { requestedScopes } from './routes/token';

/** The routes of the real service: the only ones that count in stats and suffer faults (never /sandbox/*). */
export function apiRouteKind(url: string): 'token' | 'api' | 'logout' | undefined {
  const path = url.split('?')[0] ?? '';
  if (path === '/oauth/token') return 'token';
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/auth/logout/')) return 'logout';
  return undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const ERROR_ANSWERS = [
  { status: 500, type: 'application/json', body: JSON.stringify({ status: 500, error: 'Internal Server Error' }) },
  {
    status: 500,
    type: 'text/html; charset=utf-8',
    body: "<!DOCTYPE html><html><head><title>We're sorry, but something went wrong (500)</title></head><body><h1>We're sorry, but something went wrong.</h1></body></html>",
  },
  { status: 502, type: 'text/html', body: '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>' },
  { status: 503, type: 'application/json', body: JSON.stringify({ error: 'Service Unavailable', message: 'The service is under maintenance. Try again later.' }) },
  { status: 503, type: 'text/html', body: '<html><head><title>503 Service Temporarily Unavailable</title></head><body><h1>503 Service Temporarily Unavailable</h1></body></html>' },
] as const;

function countRequest(ctx: SandboxContext, kind: 'token' | 'api' | 'logout', request: FastifyRequest): void {
  if (kind === 'api') ctx.stats.apiRequests += 1;
  else if (kind === 'logout') ctx.stats.logoutRequests += 1;
  else {
    // Counted by the scope asked for, even when the request is then refused or faulted.
    const scopes = requestedScopes(request.body);
    if (scopes.includes('authentication')) ctx.stats.tokenRequests.authentication += 1;
    if (scopes.includes('public')) ctx.stats.tokenRequests.public += 1;
  }
}

function sendRateLimited(ctx: SandboxContext, reply: FastifyReply, waitMs: number): FastifyReply {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  if (ctx.config.variants.retryAfter === 'seconds') reply.header('retry-after', String(seconds));
  if (ctx.config.variants.retryAfter === 'http-date') {
    // HTTP dates have whole seconds: round up so a client that waits until then is accepted.
    reply.header('retry-after', new Date(Math.ceil((ctx.clock.now() + waitMs) / 1000) * 1000).toUTCString());
  }
  // rack-attack's default answer.
  return reply.code(429).type('text/plain; charset=utf-8').send('Retry later\n');
}

/**
 * Counts API requests, then applies the configured faults: latency first,
 * then a cut connection, then the rate limit, then a random server error.
 */
export function registerFaults(app: FastifyInstance, ctx: SandboxContext, onDrop: (request: FastifyRequest) => void): void {
  app.addHook('preHandler', async (request, reply) => {
    const kind = apiRouteKind(request.url);
    if (!kind) return;
    countRequest(ctx, kind, request);
    const { latencyMs, dropRate, rateLimit, rateLimitWindow, errorRate } = ctx.config.faults;
    if (latencyMs > 0) await sleep(latencyMs);
    if (dropRate > 0 && ctx.faultRandom() < dropRate) {
      onDrop(request);
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (rateLimit > 0) {
      const waitMs = ctx.rateLimiter.take(rateLimit, ctx.clock.now(), rateLimitWindow);
      if (waitMs !== undefined) return sendRateLimited(ctx, reply, waitMs);
    }
    if (errorRate > 0 && ctx.faultRandom() < errorRate) {
      const answer = ERROR_ANSWERS[Math.floor(ctx.faultRandom() * ERROR_ANSWERS.length)] ?? ERROR_ANSWERS[0];
      return reply.code(answer.status).type(answer.type).send(answer.body);
    }
  });
}
