import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BATCH_TEXT_LENGTH } from '../shared/batch';
import type { BridgeMethod } from '../shared/contract';
import { PrivacyDeskError } from '../shared/errors';
import { msg, sizeText } from '../shared/messages';
import { dispatchBridgeCall, isBridgeMethod } from '../handlers/dispatch';
import type { BridgeHandlers } from '../handlers/types';
import { createPreviewGate, DEFAULT_PREVIEW_LIMITS, type PreviewLimits } from './preview-gate';
import { bridgeRequestRefusal, callerRefusal, type Refusal } from './request-guard';

/** Every bridge call's body, except the few below. */
export const BRIDGE_BODY_LIMIT = 1_048_576;

/**
 * batch.preview carries a pasted list or a file's text, up to MAX_BATCH_TEXT_LENGTH
 * characters: JSON in UTF-8 spends at most 3 bytes on each (only control characters
 * other than tab and newline are escaped longer), plus room for the other fields.
 * The schema still refuses a text over MAX_BATCH_TEXT_LENGTH.
 */
export const BATCH_PREVIEW_BODY_LIMIT = 3 * MAX_BATCH_TEXT_LENGTH + BRIDGE_BODY_LIMIT;

/** Methods whose body may be larger than BRIDGE_BODY_LIMIT, each on its own route. */
const LARGE_BODY_METHODS: Partial<Record<BridgeMethod, { bodyLimit: number; tooLarge: 'bridge.tooLargeList' }>> = {
  // The refusal says what to do instead: smaller files, or the CLI, which reads a file of any size.
  'batch.preview': { bodyLimit: BATCH_PREVIEW_BODY_LIMIT, tooLarge: 'bridge.tooLargeList' },
};

/** A refusal as the page reads it: nothing was sent anywhere. */
export function refusalBody(refusal: Pick<Refusal, 'code' | 'text'>) {
  return { ok: false, error: new PrivacyDeskError({ code: refusal.code, outcome: 'not-sent', text: refusal.text }).toInfo() };
}

export interface BridgeRoutesOptions {
  handlers: BridgeHandlers;
  token: string;
  port(): number;
  /** How many previews, and how many of their bytes, at once (web-host/preview-gate.ts). */
  previewLimits?: PreviewLimits;
}

/**
 * POST /bridge/:method (1 MB), and POST /bridge/<method> with a larger limit
 * for the methods that carry files. Every route checks the caller (token,
 * Origin, Sec-Fetch-Site, JSON) before its body is read; the Host check runs
 * before, for every request. The method name is checked once, by
 * dispatchBridgeCall, as for IPC.
 */
export async function registerBridgeRoutes(server: FastifyInstance, options: BridgeRoutesOptions): Promise<void> {
  const checkCaller = async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = bridgeRequestRefusal(request.headers, options.port(), options.token);
    if (refusal) return reply.code(refusal.status).send(refusalBody(refusal));
    return undefined;
  };

  const answer = async (method: string, request: FastifyRequest, reply: FastifyReply) => {
    let input: unknown;
    try {
      input = typeof request.body === 'string' && request.body.length > 0 ? JSON.parse(request.body) : undefined;
    } catch {
      return reply.send(refusalBody({ code: 'INVALID_INPUT', text: msg('bridge.bodyNotJson') }));
    }
    // The raw text is not needed once parsed: a large preview is not held twice while it is read.
    request.body = undefined;
    return reply.header('Cache-Control', 'no-store').send(await dispatchBridgeCall(options.handlers, method, input));
  };

  // The bridge routes answer every failure in the bridge's own shape: a body over the limit, a body Fastify cannot take.
  server.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
    const method = methodOf(request.url);
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) return reply.code(500).send({ ok: false, error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.cannotRead') }).toInfo() });
      return reply.code(status).send(refusalBody({ code: 'INVALID_INPUT', text: msg('bridge.unreadable', { method: shortName(method) }) }));
    }
    const large = LARGE_BODY_METHODS[method as BridgeMethod];
    const limit = sizeText(large?.bodyLimit ?? BRIDGE_BODY_LIMIT);
    return reply.code(413).send(refusalBody({ code: 'INVALID_INPUT', text: msg(large?.tooLarge ?? 'bridge.tooLarge', { method: shortName(method), limit }) }));
  });

  server.post<{ Params: { method: string } }>('/bridge/:method', { onRequest: checkCaller, bodyLimit: BRIDGE_BODY_LIMIT }, (request, reply) => answer(request.params.method, request, reply));
  const admitPreview = createPreviewGate(options.previewLimits ?? DEFAULT_PREVIEW_LIMITS, BATCH_PREVIEW_BODY_LIMIT);
  for (const [method, large] of Object.entries(LARGE_BODY_METHODS)) {
    // The caller is checked first; only then is a preview given room (refused when the host has none).
    const onRequest = method === 'batch.preview' ? [checkCaller, admitPreview] : checkCaller;
    server.post(`/bridge/${method}`, { onRequest, bodyLimit: large.bodyLimit }, (request, reply) => answer(method, request, reply));
  }

  // Every other request under /bridge (another HTTP method, a trailing slash, a name too long for a route):
  // the same caller checks first, then a typed refusal, answered before any body is read.
  const notABridgeCall = async (request: FastifyRequest, reply: FastifyReply) => {
    const refusal = callerRefusal(request.headers, options.port(), options.token);
    if (refusal) return reply.code(refusal.status).send(refusalBody(refusal));
    const method = methodOf(request.url);
    if (request.method !== 'POST' && isBridgeMethod(method)) {
      return reply
        .code(405)
        .header('Allow', 'POST')
        .send(refusalBody({ code: 'INVALID_INPUT', text: msg('bridge.postOnly', { verb: request.method.slice(0, 10), method: shortName(method) }) }));
    }
    return reply.code(404).send(refusalBody({ code: 'INVALID_INPUT', text: msg('bridge.unknownMethod', { method: shortName(method) }) }));
  };
  const unreachable = async (_request: FastifyRequest, reply: FastifyReply) => reply;
  server.all('/bridge', { onRequest: notABridgeCall, bodyLimit: BRIDGE_BODY_LIMIT }, unreachable);
  server.all('/bridge/*', { onRequest: notABridgeCall, bodyLimit: BRIDGE_BODY_LIMIT }, unreachable);
}

/** The method a bridge path names: what follows /bridge/, without a query. */
function methodOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.startsWith('/bridge/') ? decodeSafely(path.slice('/bridge/'.length)) : '';
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A name from the request, short and printable enough to quote back. */
function shortName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is replaced
  const printable = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return printable.length > 80 ? `${printable.slice(0, 80)}…` : printable;
}
