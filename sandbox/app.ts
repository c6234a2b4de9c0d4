import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { SandboxContext } from './context';
import { apiRouteKind, registerFaults } from './faults';
import { requestLine } from './request-log';
import { sandboxRequestRefusal } from './request-guard';
import { registerInspectRoutes } from './routes/inspect';
import { registerLogoutRoute } from './routes/logout';
import { registerTokenRoute } from './routes/token';
import { registerUserRoutes } from './routes/users';
import { answerWasLost, registerUidRequestLog } from './uid-requests';
import { MAX_UID_LENGTH } from '../shared/uid';

export interface AppOptions {
  /** One line per request; undefined = quiet. */
  log?: (line: string) => void;
}

/** The Fastify app of the sandbox, not listening yet. */
export async function buildApp(ctx: SandboxContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    genReqId: () => randomUUID(),
    // Keep-alive connections must not keep close() waiting.
    forceCloseConnections: true,
    // A 1 024-character uid can be 9 times longer once percent-encoded.
    routerOptions: { maxParamLength: MAX_UID_LENGTH * 12 },
  });

  // The service's clients send Content-Type: application/json on every request, bodiless DELETEs
  // included: an empty JSON body is "no body", not an error.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    jsonParser(request, text, done);
  });
  await app.register(formbody);
  // Any other content type is accepted and ignored, as Rails does.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Before anything else (faults included): no web page may drive the sandbox (sandbox/request-guard.ts).
  app.addHook('onRequest', async (request, reply) => {
    const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
    const refusal = sandboxRequestRefusal({
      path: (request.raw.url ?? request.url).split('?')[0] ?? '',
      host: single(request.headers.host),
      origin: single(request.headers.origin),
      fetchSite: single(request.headers['sec-fetch-site']),
      localAddress: request.raw.socket.localAddress,
    });
    if (refusal) return reply.code(403).send({ success: false, error: refusal });
  });

  const log = options.log;
  if (log) {
    app.addHook('onResponse', async (request, reply) => {
      const status = answerWasLost(request) ? `${reply.statusCode}, answer lost` : reply.statusCode;
      log(requestLine(request.method, request.raw.url ?? request.url, status, reply.elapsedTime));
    });
  }
  registerFaults(app, ctx, (request) => log?.(requestLine(request.method, request.raw.url ?? request.url, 'dropped', 0)));
  registerUidRequestLog(app, ctx);

  registerTokenRoute(app, ctx);
  registerUserRoutes(app, ctx);
  registerLogoutRoute(app, ctx);
  registerInspectRoutes(app, ctx);

  app.setNotFoundHandler(async (request, reply) =>
    reply.code(404).send({ success: false, error: `No route for ${request.method} ${request.url.split('?')[0]}` }),
  );
  app.setErrorHandler(async (error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === undefined || status < 400 || status >= 500) {
      // Never echo internals (or anything a request carried) in a 500.
      return reply.code(500).send({ success: false, error: 'Internal error in the sandbox.' });
    }
    // Our own words only: parser messages can quote the body, which may hold a secret.
    const description = clientErrorDescription((error as { code?: string }).code, status);
    if (apiRouteKind(request.url) === 'token' || apiRouteKind(request.url) === 'logout') {
      return reply.code(status).send({ error: 'invalid_request', error_description: description });
    }
    return reply.code(status).send({ success: false, error: description });
  });
  return app;
}

function clientErrorDescription(code: string | undefined, status: number): string {
  if (code === 'FST_ERR_CTP_INVALID_JSON' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || status === 400) {
    return 'The request body could not be read: check that it is valid for its Content-Type.';
  }
  if (status === 413) return 'The request body is too large.';
  if (status === 415) return 'This Content-Type is not supported.';
  return `The request was refused (HTTP ${status}).`;
}
