import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';

/**
 * The per-uid request log: every anonymise, delete and logout request that reached its route
 * handler (past the faults), in order. Tests read it to check that a client never sent an act
 * again after it had recorded it done (GET /sandbox/users/{uid} `requests`, sandbox.requestLog()).
 */

export const LOGGED_ACTS = ['anonymize', 'delete', 'logout'] as const;
export type LoggedAct = (typeof LOGGED_ACTS)[number];

export interface UidRequest {
  /** Sandbox-wide, increasing; never reused, not even after a reset. */
  seq: number;
  method: string;
  act: LoggedAct;
  /** The status the handler answered (or would have: see `answered`). */
  status: number;
  /** False when the lostAnswerRate fault cut the connection after the act took effect. */
  answered: boolean;
  /** ISO 8601, from the sandbox's clock. */
  at: string;
}

/** Memory stays bounded: the last requests of each uid, and the most recently requested uids. */
export const MAX_REQUESTS_PER_UID = 20;
export const MAX_LOGGED_UIDS = 200_000;

export class UidRequestLog {
  #seq = 0;
  #byUid = new Map<string, UidRequest[]>();

  record(uid: string, entry: Omit<UidRequest, 'seq'>): UidRequest {
    const logged: UidRequest = { seq: ++this.#seq, ...entry };
    const requests = this.#byUid.get(uid) ?? [];
    // Re-inserted so that the Map's order is "least recently requested first".
    this.#byUid.delete(uid);
    requests.push(logged);
    if (requests.length > MAX_REQUESTS_PER_UID) requests.splice(0, requests.length - MAX_REQUESTS_PER_UID);
    this.#byUid.set(uid, requests);
    if (this.#byUid.size > MAX_LOGGED_UIDS) {
      const oldest = this.#byUid.keys().next().value;
      if (oldest !== undefined) this.#byUid.delete(oldest);
    }
    return logged;
  }

  /** A copy, oldest first; empty for a uid never requested. */
  of(uid: string): UidRequest[] {
    return (this.#byUid.get(uid) ?? []).map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.#byUid.clear();
  }
}

const ERASURE_ACTS: readonly LoggedAct[] = ['anonymize', 'delete'];
const marks = new WeakMap<FastifyRequest['raw'], { uid: string; act: LoggedAct }>();
const lostAnswers = new WeakSet<FastifyRequest['raw']>();

/** Whether the lostAnswerRate fault cut this request's connection instead of answering. */
export function answerWasLost(request: FastifyRequest): boolean {
  return lostAnswers.has(request.raw);
}

/** Called by a route handler once it knows the uid: the request is logged when its answer goes out. */
export function markUidRequest(request: FastifyRequest, uid: string, act: LoggedAct): void {
  marks.set(request.raw, { uid, act });
}

/**
 * Logs marked requests with the status they answer, and applies the lostAnswerRate fault: an
 * erasure that took effect (2xx) has its connection cut instead of its answer sent, so the client
 * cannot know it was done (its retry then meets a 404).
 */
export function registerUidRequestLog(app: FastifyInstance, ctx: SandboxContext): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const mark = marks.get(request.raw);
    if (!mark) return payload;
    marks.delete(request.raw);
    const status = reply.statusCode;
    const { lostAnswerRate } = ctx.config.faults;
    const lost = ERASURE_ACTS.includes(mark.act) && status >= 200 && status < 300 && lostAnswerRate > 0 && ctx.faultRandom() < lostAnswerRate;
    ctx.requestLog.record(mark.uid, {
      method: request.method, act: mark.act, status, answered: !lost, at: new Date(ctx.clock.now()).toISOString(),
    });
    if (lost) {
      lostAnswers.add(request.raw);
      // Fastify still writes the answer afterwards, into a destroyed socket: nothing reaches the client.
      request.raw.socket.destroy();
    }
    return payload;
  });
}
