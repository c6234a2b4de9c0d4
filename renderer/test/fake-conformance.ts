import type { ProfileView } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { CONFORMANCE_CASES, overallVerdict, sendPhrase, verdictCounts, type ConformanceCaseResult, type ConformanceInput, type ConformanceRun, type ConformanceSend } from '../../shared/logout-conformance';
import { msg } from '../../shared/messages';

/**
 * The fake bridge's conformance run: on the sandbox every rule met but the events checks (not conformant, an OIDC note)
 * and the replay (inconclusive); a live profile refused unless the uid is typed again, as the gate does.
 */
export async function fakeConformanceRun(input: ConformanceInput, profiles: readonly ProfileView[]): Promise<ConformanceRun> {
  const profile = profiles.find((one) => one.id === input.profileId);
  const live = profile?.isLocal === false;
  if (live && input.confirmUid !== input.uid) {
    throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('conformance.confirmLive', { host: 'debate.example', uid: input.uid }) });
  }
  const sessions = live ? 'not-checked' : undefined;
  const cases: ConformanceCaseResult[] = CONFORMANCE_CASES.map(({ id, source, reference, expectation }) => {
    const events = id === 'no-events' || id === 'events-without-member';
    const accepted = expectation === 'ends-sessions' || expectation === 'keeps-sessions' || events;
    const send: ConformanceSend = accepted
      ? { answer: 'accepted', status: 200, sessions: sessions ?? (expectation === 'keeps-sessions' || events ? 'kept' : 'ended') }
      : { answer: 'refused', status: 400, sessions: sessions ?? 'kept', serviceSaid: 'The logout token is not valid.' };
    const base = { id, source, reference, rule: msg(`conformance.rule.${id}`), expected: msg(`conformance.expected.${expectation}`), sends: [send] };
    if (id === 'replay') return { ...base, actual: msg('conformance.actual.replayNotTried', { first: sendPhrase({ answer: 'answered', status: 503, errorCode: 'SERVER_ERROR', sessions: 'kept' }, input.uid) }), verdict: 'inconclusive' };
    const verdict = events ? 'not-conformant' : live && expectation === 'ends-sessions' ? 'inconclusive' : 'conformant';
    return { ...base, actual: sendPhrase(send, input.uid), verdict };
  });
  return {
    uid: input.uid,
    profileId: input.profileId,
    profileName: profile?.name ?? 'Sandbox',
    baseUrl: profile?.baseUrl ?? 'http://127.0.0.1:4600',
    startedAt: '2026-11-24T10:00:00.000+01:00',
    finishedAt: '2026-11-24T10:00:02.000+01:00',
    sessionsChecked: !live,
    cases,
    counts: verdictCounts(cases),
    overall: overallVerdict(cases),
  };
}
