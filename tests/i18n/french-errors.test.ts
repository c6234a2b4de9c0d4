import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base64url } from 'jose';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { isPrivacyDeskError, type PrivacyDeskError } from '../../shared/errors';
import type { ServiceClient } from '../../core/types';
import { createI18n } from '../../renderer/i18n';
import { wordError, wordMessage } from '../../renderer/i18n/word-message';
import { clientFor, untilRefused } from '../integration/helpers';

/**
 * The real core against the real sandbox and its faults, read in French as the window reads it: a refused
 * connection, a cut one, a failing service, a slow one, a refused key, and every problem of a broken token.
 * None may leave English — nor Node's own words ("fetch failed", "other side closed") — in the French text;
 * the system's code (ECONNREFUSED…) only apart, quoted as the system's.
 */

const fr = createI18n('fr');
/** English words that never occur in French: one of them is a sentence left untranslated. */
const ENGLISH = /(?<!\p{L})(the|and|not|was|with|this|could|check|again|is|are|to|of|has|have|no|from|failed|connection|request|answer|service’s|user)(?!\p{L})/iu;
const NO_FAULTS = { dropRate: 0, errorRate: 0, latencyMs: 0 };
const NODE_WORDS = /fetch failed|other side closed|socket|ECONN|UND_ERR|ETIMEDOUT/i;

async function failure(promise: Promise<unknown>): Promise<PrivacyDeskError> {
  try {
    await promise;
  } catch (error) {
    if (isPrivacyDeskError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

function inFrench(error: PrivacyDeskError): string {
  const worded = wordError(fr, error.toInfo());
  // A message the window knows, not the fallback for its code (that would hide a missing id).
  expect(error.text, `${error.code} carries a message id`).toBeDefined();
  expect(wordMessage(fr, error.text!), `${error.text!.id} is worded in French`).toBe(worded);
  return worded;
}

describe('the core’s failures, read in French', () => {
  let sandbox: RunningSandbox;
  let client: ServiceClient;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 5 });
    client = clientFor(sandbox, { timeoutMs: 300 });
  });
  afterAll(async () => sandbox.close());

  it('a cut connection, a failing service and a silent one', async () => {
    for (const [faults, code] of [
      [{ dropRate: 1 }, 'NETWORK'],
      [{ errorRate: 1 }, 'SERVER_ERROR'],
      [{ latencyMs: 2_000 }, 'TIMEOUT'],
    ] as const) {
      sandbox.setFaults({ ...NO_FAULTS, ...faults });
      // A new client each time: a token a former check got is not reused, so every check meets the fault.
      client = clientFor(sandbox, { timeoutMs: 300 });
      // A token request: never retried, so the fault's own failure comes back (a list would retry, then give up).
      const error = await failure(client.checkToken('authentication'));
      expect(error.code).toBe(code);
      const words = inFrench(error);
      expect(words, words).not.toMatch(ENGLISH);
      expect(words, words).not.toMatch(NODE_WORDS);
    }
    sandbox.setFaults(NO_FAULTS);
  });

  it('a refused key', async () => {
    const error = await failure(clientFor(sandbox, { credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: 'wrong-secret-0123456789' } }).checkToken('authentication'));
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(inFrench(error)).not.toMatch(ENGLISH);
  });

  it('every problem the token verifier finds', async () => {
    const encode = (value: unknown) => base64url.encode(JSON.stringify(value));
    const tokens = ['abc.def', '!!.??.x', `${encode({ alg: 'none' })}.${encode({ sub: 5, exp: 'x', iat: 'y', aud: 'nope' })}.`, `${encode({ alg: 'RS256' })}.${encode({ exp: 1 })}.x`];
    let seen = 0;
    for (const token of tokens) {
      const verification = await client.verifyLogoutToken(token);
      for (const problem of verification.problemTexts) {
        const words = wordMessage(fr, problem);
        expect(words, problem.id).toBeDefined();
        expect(words, words).not.toMatch(ENGLISH);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(8);
  });

  it('a refused connection (nothing listens any more): the system’s code apart, quoted', async () => {
    const gone = await startSandbox({ users: 1 });
    const goneClient = clientFor(gone, { timeoutMs: 2_000 });
    await gone.close();
    await untilRefused(gone.url);
    const error = await failure(goneClient.listUsers({ page: 1, perPage: 1 }));
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not-sent', quote: { from: 'system', text: 'ECONNREFUSED' } });
    const words = inFrench(error);
    expect(words).toMatch(/^Impossible de joindre 127\.0\.0\.1:\d+\u00a0: la connexion a été refusée/);
    expect(words, words).not.toMatch(NODE_WORDS);
  });
});
