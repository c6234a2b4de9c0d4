import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';
import { startAppRuntime, type AppRuntime, type AppRuntimeOptions } from '../app-runtime/app-runtime';
import { SECURITY_HEADERS } from '../shared/security-headers';
import { BRIDGE_BODY_LIMIT, refusalBody, registerBridgeRoutes } from './bridge-routes';
import { registerEventStream } from './event-stream';
import type { PreviewLimits } from './preview-gate';
import { callerRefusal, isAllowedHost } from './request-guard';

export const DEFAULT_WEB_HOST_PORT = 4610;
const LOOPBACK = '127.0.0.1';

export interface WebHostOptions {
  /** 0 = any free port; default 4610, then any free port when taken. */
  port?: number;
  dataDir?: string;
  /** Default true. */
  bundledSandbox?: boolean;
  /** The built renderer; default dist/renderer under the working folder. */
  staticDir?: string;
  /** Extension for tests: the bundled sandbox's port (default 4600, then free). */
  sandboxPort?: number;
  /** Extension for tests: the credential store (default: OS keychain or session store). */
  openCredentials?: AppRuntimeOptions['openCredentials'];
  /** Extension for tests: the fetch the core sends service requests with (default: Node's). */
  fetch?: AppRuntimeOptions['fetch'];
  /** Extension for tests: how many batch previews, and how many of their bytes, are read at once (default 2 and 128 MB). */
  previewLimits?: PreviewLimits;
  version?: string;
}

export interface RunningWebHost {
  /** The address to open, including the per-launch token in the fragment (never sent to the server by the browser). */
  url: string;
  origin: string;
  token: string;
  /** Set when the bundled sandbox runs. */
  sandboxUrl?: string;
  dataDir: string;
  close(): Promise<void>;
}

function buildServer(runtime: AppRuntime, staticDir: string, token: string, portOf: () => number, previewLimits?: PreviewLimits): { server: FastifyInstance; endEventStreams(): void } {
  // forceCloseConnections: a browser's keep-alive or in-flight request must not keep close() waiting.
  const server = Fastify({ logger: false, bodyLimit: BRIDGE_BODY_LIMIT, forceCloseConnections: true });

  // Keep the raw text: a malformed body becomes an INVALID_INPUT answer, not a framework error page.
  server.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  server.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    if (!isAllowedHost(request.headers.host, portOf())) {
      return reply.code(403).type('text/plain; charset=utf-8').send('Refused: open Privacy Desk at the 127.0.0.1 address printed by `npm run web`.');
    }
  });

  // In their own scope: their error handler (a body over the limit) applies to them only.
  server.register((bridge) => registerBridgeRoutes(bridge, { handlers: runtime.handlers, token, port: portOf, ...(previewLimits ? { previewLimits } : {}) }));

  const eventStreams = registerEventStream(server, {
    events: runtime.events,
    refuse: (headers, reply) => {
      const refusal = callerRefusal(headers, portOf(), token);
      return refusal ? reply.code(refusal.status).send(refusalBody(refusal)) : undefined;
    },
  });

  server.register(fastifyStatic, { root: staticDir, prefix: '/', index: ['index.html'], serveDotFiles: false, dotfiles: 'ignore', list: false, redirect: false });
  return { server, endEventStreams: eventStreams.endAll };
}

async function listen(server: FastifyInstance, port: number): Promise<number> {
  try {
    await server.listen({ host: LOOPBACK, port });
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await server.listen({ host: LOOPBACK, port: 0 });
  }
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('The web host did not get a TCP port.');
  return address.port;
}

/**
 * Serves the built renderer and the bridge on 127.0.0.1 only, for use in a
 * browser where Electron cannot run. Each launch has a new random token that
 * the page must send with every bridge call.
 */
export async function startWebHost(options: WebHostOptions = {}): Promise<RunningWebHost> {
  const staticDir = resolve(options.staticDir ?? 'dist/renderer');
  if (!existsSync(resolve(staticDir, 'index.html'))) {
    throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('bridge.missingWindow', { path: `${staticDir}/index.html` }) });
  }
  const runtime = await startAppRuntime({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    bundledSandbox: options.bundledSandbox ?? true,
    ...(options.sandboxPort !== undefined ? { sandboxPort: options.sandboxPort } : {}),
    ...(options.openCredentials ? { openCredentials: options.openCredentials } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    version: options.version ?? process.env.npm_package_version ?? '0.0.0',
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
  });
  const token = randomBytes(32).toString('base64url');
  let port = 0;
  const { server, endEventStreams } = buildServer(runtime, staticDir, token, () => port, options.previewLimits);
  try {
    port = await listen(server, options.port ?? DEFAULT_WEB_HOST_PORT);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const origin = `http://${LOOPBACK}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    ...(runtime.sandbox ? { sandboxUrl: runtime.sandbox.url } : {}),
    dataDir: runtime.dataDir,
    close() {
      // Open event streams end first, so a page sees the end of its stream rather than a cut connection.
      closing ??= Promise.resolve()
        .then(endEventStreams)
        .then(() => server.close())
        .finally(() => runtime.close());
      return closing;
    },
  };
}
