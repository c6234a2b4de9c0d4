import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_BATCH_TEXT_LENGTH } from '../shared/batch';
import type { BridgeMethod } from '../shared/contract';
import { PrivacyDeskError } from '../shared/errors';
import { dispatchBridgeCall } from '../handlers/dispatch';
import type { BridgeHandlers } from '../handlers/types';
import { bridgeRequestRefusal, type Refusal } from './request-guard';

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
const LARGE_BODY_METHODS: Partial<Record<BridgeMethod, { bodyLimit: number; whatToDo: string }>> = {
  'batch.preview': {
    bodyLimit: BATCH_PREVIEW_BODY_LIMIT,
    whatToDo: 'Split the list into smaller files and run them one after the other, or run it with the CLI (`privacy-desk batch`), which reads a file of any size.',
  },
};

/** A refusal as the page reads it: nothing was sent anywhere. */
export function refusalBody(refusal: Pick<Refusal, 'code' | 'message'>) {
  return { ok: false, error: new PrivacyDeskError({ code: refusal.code, outcome: 'not-sent', message: refusal.message }).toInfo() };
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / 1_048_576)} MB`;
}

export interface BridgeRoutesOptions {
  handlers: BridgeHandlers;
  token: string;
  port(): number;
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
      return reply.send(refusalBody({ code: 'INVALID_INPUT', message: 'The request body is not valid JSON. Reload the page and try again.' }));
    }
    return reply.header('Cache-Control', 'no-store').send(await dispatchBridgeCall(options.handlers, method, input));
  };

  // Only the bridge routes answer a body over their limit in the bridge's own shape.
  server.setErrorHandler((error: { code?: string }, request, reply) => {
    if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') throw error;
    const method = (request.params as { method?: string }).method ?? request.url.slice('/bridge/'.length);
    const large = LARGE_BODY_METHODS[method as BridgeMethod];
    const limit = large?.bodyLimit ?? BRIDGE_BODY_LIMIT;
    const whatToDo = large?.whatToDo ?? 'Send less at once; if this came from the window, reload it.';
    return reply.code(413).send(refusalBody({ code: 'INVALID_INPUT', message: `The request "${method.slice(0, 80)}" is larger than ${megabytes(limit)} and was refused before anything was sent. ${whatToDo}` }));
  });

  server.post<{ Params: { method: string } }>('/bridge/:method', { onRequest: checkCaller, bodyLimit: BRIDGE_BODY_LIMIT }, (request, reply) => answer(request.params.method, request, reply));
  for (const [method, large] of Object.entries(LARGE_BODY_METHODS)) {
    server.post(`/bridge/${method}`, { onRequest: checkCaller, bodyLimit: large.bodyLimit }, (request, reply) => answer(method, request, reply));
  }
}
