import type { FastifyReply, FastifyRequest } from 'fastify';
import { PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';

/** How much batch.preview work the host takes at once: each preview holds its text, and more, in memory while it is read. */
export interface PreviewLimits {
  /** Previews read at the same time (default 2). */
  concurrent: number;
  /** Their bodies together, in bytes, as declared (a body without a length counts as the largest allowed). Default 128 MB. */
  bytes: number;
}

export const DEFAULT_PREVIEW_LIMITS: PreviewLimits = { concurrent: 2, bytes: 128 * 1_048_576 };

/** How long a refused preview is told to wait before asking again. */
const RETRY_AFTER_SECONDS = 5;

/**
 * Admits a batch.preview before its body is read, within the limits: a page (or anything holding the token)
 * sending many large previews at once gets a typed BUSY refusal, not a host that runs out of memory. What a
 * preview holds is given back when its answer is sent or its connection closes, whichever comes first.
 */
export function createPreviewGate(limits: PreviewLimits, largestBody: number) {
  let running = 0;
  let bytes = 0;
  return async function admitPreview(request: FastifyRequest, reply: FastifyReply) {
    const declared = Number(request.headers['content-length']);
    const size = Number.isSafeInteger(declared) && declared >= 0 && declared <= largestBody ? declared : largestBody;
    if (running >= limits.concurrent || (running > 0 && bytes + size > limits.bytes)) {
      const error = new PrivacyDeskError({
        code: 'BUSY',
        outcome: 'not-sent',
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        text: msg('bridge.previewBusy', { count: running }),
      });
      return reply.code(503).header('Retry-After', String(RETRY_AFTER_SECONDS)).send({ ok: false, error: error.toInfo() });
    }
    running += 1;
    bytes += size;
    let released = false;
    reply.raw.once('close', () => {
      if (released) return;
      released = true;
      running -= 1;
      bytes -= size;
    });
    return undefined;
  };
}
