import type { FastifyInstance, FastifyReply } from 'fastify';
import type { BridgeEvent } from '../shared/contract';
import { formatServerSentComment, formatServerSentEvent } from '../shared/server-sent-events';
import { BRIDGE_EVENTS_PATH, EVENT_STREAM_HEARTBEAT_MS } from '../shared/web-host-protocol';
import type { RequestHeaders } from './request-guard';

export interface EventStreamOptions {
  /** The runtime's events; each open stream subscribes while it is open. */
  events: { subscribe(listener: (event: BridgeEvent) => void): () => void };
  /** Refuses a caller exactly as a bridge call would be refused (token, Origin, Sec-Fetch-Site). */
  refuse: (headers: RequestHeaders, reply: FastifyReply) => FastifyReply | undefined;
  /** How often a comment is written when nothing else is (default EVENT_STREAM_HEARTBEAT_MS). */
  heartbeatMs?: number;
}

/**
 * GET /bridge/events: the main → page events as Server-Sent Events, behind the
 * same checks as a bridge call (the Host check runs before, for every request).
 * The page reads it with fetch() so it can send the token header. Each event
 * is written straight to the socket, in the order the runtime emitted it.
 * A comment goes out every few seconds (the heartbeat) so the page can tell this host stopped answering.
 * Returns `endAll`, which ends every open stream (the host is closing).
 */
export function registerEventStream(server: FastifyInstance, options: EventStreamOptions): { endAll(): void } {
  const open = new Set<() => void>();

  server.get(BRIDGE_EVENTS_PATH, (request, reply) => {
    const refused = options.refuse(request.headers, reply);
    if (refused) return refused;

    // Written by hand from here on: Fastify would otherwise buffer or end the reply.
    reply.hijack();
    const response = reply.raw;
    // The security headers set for every request (onRequest hook), then the stream's own.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) response.setHeader(name, value);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    let unsubscribe = () => {};
    // A beat the page listens for: its silence tells a host that stopped answering from one with nothing to say.
    const heartbeat = setInterval(() => response.write(formatServerSentComment('alive')), options.heartbeatMs ?? EVENT_STREAM_HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(end);
      if (!response.writableEnded) response.end();
    };
    open.add(end);
    unsubscribe = options.events.subscribe((event) => {
      response.write(formatServerSentEvent(event.name, JSON.stringify(event.payload)));
    });
    response.on('close', end);
    // Sends the headers now: the page knows the stream is live before it starts a job.
    response.write(formatServerSentComment('connected'));
    return reply;
  });

  return {
    endAll() {
      for (const end of [...open]) end();
    },
  };
}
