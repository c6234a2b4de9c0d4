import { isPrivacyDeskError } from '../../shared/errors';
import {
  CONFORMANCE_CASES,
  judgeReplay,
  judgeSend,
  sendAnswer,
  sendPhrase,
  type ConformanceCaseId,
  type ConformanceCaseResult,
  type ConformanceSend,
  type SessionEvidence,
} from '../../shared/logout-conformance';
import { msg } from '../../shared/messages';
import type { ConformanceReply, ConformanceSender } from './logout-conformance-send';
import { craftConformanceToken, craftReplayToken, type CraftedToken } from './logout-conformance-tokens';

/** How often one token is sent again after a 429, and the longest wait for each: well within the token's 120 s. */
const RATE_LIMIT_RETRIES = 3;
const RATE_LIMIT_WAIT_MAX_S = 20;

/** One crafted token handed to the gate, which audits it before and after it is sent. */
export type AuditedSend = (caseId: ConformanceCaseId, crafted: CraftedToken, expectRefusal: boolean) => Promise<ConformanceReply>;

/** Before a case: a session opened for the uid, none possible (no active user), or sessions not readable here. */
type SessionsBefore = 'opened' | 'no-user' | 'unavailable';

/**
 * Runs every case in order for one uid. On a sandbox a session is opened before each send and counted after it,
 * so "accepted" is proven by sessions ending; elsewhere the session state is 'not-checked'.
 */
export async function runConformanceCases(uid: string, sender: ConformanceSender, send: AuditedSend): Promise<ConformanceCaseResult[]> {
  const openSession = async (): Promise<SessionsBefore> => {
    if (!sender.sessions) return 'unavailable';
    try {
      return (await sender.sessions.open(uid)) === undefined ? 'no-user' : 'opened';
    } catch (error) {
      // A loopback service that is not the sandbox: its sessions cannot be read.
      if (isPrivacyDeskError(error)) return 'unavailable';
      throw error;
    }
  };
  const sessionsAfter = async (before: SessionsBefore): Promise<SessionEvidence> => {
    if (before === 'no-user') return 'no-session';
    if (before === 'unavailable' || !sender.sessions) return 'not-checked';
    const count = await sender.sessions.count(uid);
    if (count === undefined) return 'not-checked';
    return count === 0 ? 'ended' : 'kept';
  };
  const sendOnce = async (caseId: ConformanceCaseId, crafted: CraftedToken, expectRefusal: boolean): Promise<ConformanceSend> => {
    const before = await openSession();
    let reply = await send(caseId, crafted, expectRefusal);
    // A 429 judges nothing: the same token is sent again (each send audited) once the service's wait is over.
    for (let waits = 0; reply.status === 429 && waits < RATE_LIMIT_RETRIES; waits += 1) {
      await sender.pause(Math.min(reply.retryAfterSeconds ?? 1, RATE_LIMIT_WAIT_MAX_S) * 1000);
      reply = await send(caseId, crafted, expectRefusal);
    }
    const result: ConformanceSend = { answer: sendAnswer(reply), sessions: await sessionsAfter(before) };
    if (reply.status !== undefined) result.status = reply.status;
    if (reply.errorCode !== undefined) result.errorCode = reply.errorCode;
    if (reply.requestId !== undefined) result.requestId = reply.requestId;
    if (reply.serviceSaid !== undefined) result.serviceSaid = reply.serviceSaid;
    return result;
  };

  const results: ConformanceCaseResult[] = [];
  for (const definition of CONFORMANCE_CASES) {
    const { id, source, reference, expectation } = definition;
    const base = { id, source, reference, rule: msg(`conformance.rule.${id}`), expected: msg(`conformance.expected.${expectation}`) };
    if (id === 'replay') {
      const token = await craftReplayToken(uid, sender.context);
      const first = await sendOnce(id, token, false);
      const firstEnded = first.answer === 'accepted' && (first.sessions === 'ended' || first.sessions === 'not-checked');
      if (!firstEnded) {
        results.push({ ...base, actual: msg('conformance.actual.replayNotTried', { first: sendPhrase(first, uid) }), verdict: judgeReplay(first, undefined), sends: [first] });
        continue;
      }
      const second = await sendOnce(id, token, true);
      const actual = msg('conformance.actual.replay', { first: sendPhrase(first, uid), second: sendPhrase(second, uid) });
      results.push({ ...base, actual, verdict: judgeReplay(first, second), sends: [first, second] });
      continue;
    }
    const one = await sendOnce(id, await craftConformanceToken(id, uid, sender.context), expectation === 'refused');
    const judged = judgeSend(expectation, one);
    results.push({ ...base, actual: sendPhrase(one, uid), verdict: judged, sends: [one] });
  }
  return results;
}
