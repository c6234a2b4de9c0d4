import { z } from 'zod';
import type { ErrorCode } from './errors';
import { visibleUidText } from './invisible-characters';
import { logoutAnswer, type LogoutAnswer, type LogoutReply } from './logout';
import type { MessageText } from './message-text';
import { msg } from './messages';

/**
 * The logout conformance run: for each rule of a logout token's validation, one crafted token, what the rule
 * requires, what the service did, and a verdict. Where a rule comes from tells a tester what a "not conformant"
 * means: against the service's own docs it is a defect; against the OIDC specification or good practice, a note.
 */
export const CONFORMANCE_SOURCES = ['service-docs', 'oidc-spec', 'good-practice'] as const;
export type ConformanceSource = (typeof CONFORMANCE_SOURCES)[number];

export const CONFORMANCE_VERDICTS = ['conformant', 'not-conformant', 'inconclusive'] as const;
export type ConformanceVerdict = (typeof CONFORMANCE_VERDICTS)[number];

/** What the rule asks of the service's answer: accept and end the sessions, refuse and end none, or leave the tested user's sessions alone. */
export type ConformanceExpectation = 'ends-sessions' | 'refused' | 'keeps-sessions' | 'replay-refused';

interface CaseDefinition {
  id: string;
  source: ConformanceSource;
  expectation: ConformanceExpectation;
  /** The text the rule comes from (a citation, the same in every language). */
  reference: string;
}

const SPEC = 'OpenID Connect Back-Channel Logout 1.0';
const DOCS = 'docs/SERVICE-API.md, Back-channel logout';

/**
 * The cases, in the order they run. The service's docs (the published route: "a JWT signed with the secret key whose
 * sub claim equals the user's uid … the service verifies the token and ends all sessions of that user"; observed: HS256,
 * sub required, alg none refused) state the signature, the algorithm and sub; they name aud and iat as usual claims
 * without saying they are checked, and say nothing of events, nonce, jti, iss, exp, replays, size or crit.
 */
export const CONFORMANCE_CASES = [
  // Docs: the token is verified and ends all sessions of the user its sub names.
  { id: 'valid', source: 'service-docs', expectation: 'ends-sessions', reference: `${DOCS} (Effect); ${SPEC} §2.4` },
  // Docs: "signed with the secret key".
  { id: 'wrong-secret', source: 'service-docs', expectation: 'refused', reference: `${DOCS} (Token); ${SPEC} §2.6 (2)` },
  // Docs (observed): "alg: none refused".
  { id: 'alg-none', source: 'service-docs', expectation: 'refused', reference: `${DOCS}, Logout token rules; ${SPEC} §2.6 (2)` },
  // Docs: signed with the secret key (HS256; HS384/HS512 the accepted alternatives), so another algorithm is not its signature.
  { id: 'other-alg', source: 'service-docs', expectation: 'refused', reference: `${DOCS}, Logout token rules; ${SPEC} §2.6 (2)` },
  // Docs: "sub equals the user's uid": a token naming another user leaves this one's sessions open.
  { id: 'other-sub', source: 'service-docs', expectation: 'keeps-sessions', reference: `${DOCS} (Token); ${SPEC} §2.6 (9)` },
  // Docs (observed): "sub required" — stricter than OIDC, which accepts sid alone; the service issues no sid.
  { id: 'sid-only', source: 'service-docs', expectation: 'refused', reference: `${DOCS}, Logout token rules; ${SPEC} §2.6 (3)` },
  // Docs and OIDC: a token must name a sub or a sid.
  { id: 'no-sub-no-sid', source: 'service-docs', expectation: 'refused', reference: `${DOCS}, Logout token rules; ${SPEC} §2.6 (3)` },
  // OIDC only: the docs never mention events.
  { id: 'no-events', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.4, §2.6 (4)` },
  { id: 'events-without-member', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.6 (4)` },
  // OIDC only: a logout token must not carry a nonce.
  { id: 'nonce', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.4, §2.6 (5)` },
  // Good practice: OIDC validates iat "as for ID Tokens", whose acceptable range is left to the receiver.
  { id: 'future-iat', source: 'good-practice', expectation: 'refused', reference: 'OpenID Connect Core 1.0 §3.1.3.7 (10)' },
  { id: 'old-iat', source: 'good-practice', expectation: 'refused', reference: 'OpenID Connect Core 1.0 §3.1.3.7 (10)' },
  // OIDC: exp validated as for ID Tokens. The docs do not mention exp.
  { id: 'expired', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.6 (2); OpenID Connect Core 1.0 §3.1.3.7 (9)` },
  // OIDC: aud validated. The docs name aud as a usual claim, not as checked.
  { id: 'wrong-aud', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.6 (2); OpenID Connect Core 1.0 §3.1.3.7 (3)` },
  // OIDC: iss validated. The docs name no issuer; Privacy Desk sends the application name.
  { id: 'wrong-iss', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.6 (2); OpenID Connect Core 1.0 §3.1.3.7 (2)` },
  // OIDC: jti is required in a logout token.
  { id: 'no-jti', source: 'oidc-spec', expectation: 'refused', reference: `${SPEC} §2.4` },
  // Good practice: OIDC makes the replay check optional ("MAY").
  { id: 'replay', source: 'good-practice', expectation: 'replay-refused', reference: `${SPEC} §2.6 (6)` },
  // Good practice: a receiver bounds what it parses.
  { id: 'oversized', source: 'good-practice', expectation: 'refused', reference: 'RFC 8725 (JWT Best Current Practices) §3.1, §3.12' },
  // JWS, on which the OIDC tokens rest: an unknown critical extension must be refused.
  { id: 'unknown-crit', source: 'oidc-spec', expectation: 'refused', reference: 'RFC 7515 (JWS) §4.1.11' },
] as const satisfies readonly CaseDefinition[];

export type ConformanceCaseId = (typeof CONFORMANCE_CASES)[number]['id'];
export const CONFORMANCE_CASE_IDS = CONFORMANCE_CASES.map((one) => one.id) as [ConformanceCaseId, ...ConformanceCaseId[]];

/** Whether the sessions of the tested user ended: read on the sandbox before and after each send; elsewhere not known. */
export type SessionEvidence = 'ended' | 'kept' | 'not-checked' | 'no-session';

/** One send of a case (the replay case has two). */
export interface ConformanceSend {
  answer: LogoutAnswer;
  status?: number;
  errorCode?: ErrorCode;
  requestId?: string;
  sessions: SessionEvidence;
  /** The service's own words (its error_description), secrets cut out: hostile text, shown quoted. */
  serviceSaid?: string;
}

export interface ConformanceCaseResult {
  id: ConformanceCaseId;
  source: ConformanceSource;
  reference: string;
  rule: MessageText;
  expected: MessageText;
  actual: MessageText;
  verdict: ConformanceVerdict;
  sends: ConformanceSend[];
}

/** not-conformant: a rule of the service's docs is not met; inconclusive: none failed, but one of them could not be judged. */
export type ConformanceOverall = 'conformant' | 'not-conformant' | 'inconclusive';

export interface ConformanceRun {
  uid: string;
  profileId: string;
  profileName: string;
  baseUrl: string;
  startedAt: string;
  finishedAt: string;
  /** True on a sandbox: a session was opened before each case and counted after it. */
  sessionsChecked: boolean;
  cases: ConformanceCaseResult[];
  counts: Record<ConformanceVerdict, number>;
  overall: ConformanceOverall;
}

export const conformanceInputSchema = z.object({
  profileId: z.string().min(1).max(200),
  uid: z.string(),
  /** For a live profile, the uid typed again: the run ends real sessions. */
  confirmUid: z.string().optional(),
  reference: z.string().max(200).optional(),
});
export type ConformanceInput = z.infer<typeof conformanceInputSchema>;

/**
 * The sub of the other-sub case: the uid in other letter case (another user for a service that compares uids exactly),
 * or with a suffix when it has no letters. Its token is valid, so on live data a user with that uid loses their
 * sessions too: the confirmation names it.
 */
export function anotherUsersUid(uid: string): string {
  const swapped = [...uid].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
  return swapped !== uid ? swapped : `${uid}-other`;
}

export function caseDefinition(id: ConformanceCaseId): (typeof CONFORMANCE_CASES)[number] {
  return CONFORMANCE_CASES.find((one) => one.id === id) as (typeof CONFORMANCE_CASES)[number];
}

/** How one send was answered, in one word (shared/logout.ts logoutAnswer: only accepted and refused judge the token). */
export function sendAnswer(reply: LogoutReply): LogoutAnswer {
  return logoutAnswer(reply);
}

function answerPhrase(send: ConformanceSend): MessageText {
  const status = send.status ?? 0;
  switch (send.answer) {
    case 'accepted':
      return msg('conformance.answer.accepted', { status });
    case 'refused':
      return msg('conformance.answer.refused', { status });
    case 'says-failed':
      return msg('conformance.answer.saysFailed', { status });
    case 'answered':
      return msg('conformance.answer.answered', { status, code: send.errorCode ?? 'UNEXPECTED_RESPONSE' });
    case 'no-answer':
      return msg('conformance.answer.noAnswer', { code: send.errorCode ?? 'NETWORK' });
  }
}

/** "refused (400); the sessions stayed open". */
export function sendPhrase(send: ConformanceSend, uid: string): MessageText {
  return msg('conformance.actual.one', { answer: answerPhrase(send), sessions: sessionsPhrase(send.sessions, uid) });
}

function sessionsPhrase(sessions: SessionEvidence, uid: string): MessageText {
  switch (sessions) {
    case 'ended':
      return msg('conformance.sessions.ended');
    case 'kept':
      return msg('conformance.sessions.kept');
    case 'not-checked':
      return msg('conformance.sessions.notChecked');
    case 'no-session':
      // Prose shown as it is (window, CLI, exports): the uid drawn visibly, so a bidi override cannot reverse the sentence.
      return msg('conformance.sessions.noSession', { uid: visibleUidText(uid) });
  }
}

/** The verdict of one send against what its rule expects (the replay case judges its second send with 'refused'). */
export function judgeSend(expectation: Exclude<ConformanceExpectation, 'replay-refused'>, send: ConformanceSend): ConformanceVerdict {
  const judged = send.answer === 'accepted' || send.answer === 'refused';
  if (expectation === 'ends-sessions') {
    if (send.answer === 'refused') return 'not-conformant';
    if (send.answer !== 'accepted') return 'inconclusive';
    if (send.sessions === 'ended') return 'conformant';
    return send.sessions === 'kept' ? 'not-conformant' : 'inconclusive';
  }
  // A token that must not end these sessions did, whatever the answer said.
  if (send.sessions === 'ended') return 'not-conformant';
  if (expectation === 'refused') {
    if (!judged) return 'inconclusive';
    return send.answer === 'refused' ? 'conformant' : 'not-conformant';
  }
  // keeps-sessions: a token naming another user may be accepted; only the tested user's sessions tell.
  if (!judged || send.sessions === 'no-session') return 'inconclusive';
  if (send.sessions === 'kept' || send.answer === 'refused') return 'conformant';
  return 'inconclusive';
}

/** The replay case: the first send must end the sessions (else the replay proves nothing), the second be refused. */
export function judgeReplay(first: ConformanceSend, second: ConformanceSend | undefined): ConformanceVerdict {
  const firstVerdict = judgeSend('ends-sessions', first);
  const firstAccepted = firstVerdict === 'conformant' || (first.answer === 'accepted' && first.sessions === 'not-checked');
  if (!firstAccepted || !second) return 'inconclusive';
  return judgeSend('refused', second);
}

/** The run's verdict: only the rules of the service's docs decide it; the others are notes. */
export function overallVerdict(cases: readonly Pick<ConformanceCaseResult, 'source' | 'verdict'>[]): ConformanceOverall {
  const docs = cases.filter((one) => one.source === 'service-docs');
  if (docs.some((one) => one.verdict === 'not-conformant')) return 'not-conformant';
  return docs.some((one) => one.verdict === 'inconclusive') ? 'inconclusive' : 'conformant';
}

export function verdictCounts(cases: readonly Pick<ConformanceCaseResult, 'verdict'>[]): Record<ConformanceVerdict, number> {
  const counts: Record<ConformanceVerdict, number> = { conformant: 0, 'not-conformant': 0, inconclusive: 0 };
  for (const one of cases) counts[one.verdict] += 1;
  return counts;
}
