import { message, param } from '../message-text';

/** The logout conformance run (shared/logout-conformance.ts): each rule, what it expects, what the service did. */
export const LOGOUT_CONFORMANCE_MESSAGES = {
  // What each case checks, as a rule the service should meet.
  'conformance.rule.valid': message('A valid token (signed with the secret key; sub, aud, iss, iat, exp, jti and the logout event) is accepted and ends every session of the user.'),
  'conformance.rule.wrong-secret': message('A token signed with another secret is refused.'),
  'conformance.rule.alg-none': message('An unsigned token (alg “none”) is refused.'),
  'conformance.rule.other-alg': message('A token signed with another algorithm than the service’s (ES256 with a key it does not know) is refused.'),
  'conformance.rule.other-sub': message('A token whose sub names another user (the uid in other letter case) leaves this user’s sessions open.'),
  'conformance.rule.sid-only': message('A token with a sid and no sub is refused: the service’s docs require sub (OIDC would accept a sid it knows).'),
  'conformance.rule.no-sub-no-sid': message('A token with neither sub nor sid is refused.'),
  'conformance.rule.no-events': message('A token without the events claim is refused.'),
  'conformance.rule.events-without-member': message('A token whose events claim lacks the back-channel logout member is refused.'),
  'conformance.rule.nonce': message('A token carrying a nonce is refused.'),
  'conformance.rule.future-iat': message('A token issued a day in the future (iat) is refused.'),
  'conformance.rule.old-iat': message('A token issued a day ago (iat), though not expired, is refused.'),
  'conformance.rule.expired': message('A token whose exp is two minutes past is refused.'),
  'conformance.rule.wrong-aud': message('A token for another audience (aud) is refused.'),
  'conformance.rule.wrong-iss': message('A token from another issuer (iss) is refused.'),
  'conformance.rule.no-jti': message('A token without a jti is refused.'),
  'conformance.rule.replay': message('The same token sent twice (same jti) is accepted once, then refused.'),
  'conformance.rule.oversized': message('A token of 64 KB is refused.'),
  'conformance.rule.unknown-crit': message('A token whose header marks an unknown extension as critical (crit) is refused.'),

  // What the rule expects.
  'conformance.expected.ends-sessions': message('Accepted (2xx), and the user’s sessions end.'),
  'conformance.expected.refused': message('Refused (4xx), and no session ends.'),
  'conformance.expected.keeps-sessions': message('This user’s sessions stay open (accepted or refused).'),
  'conformance.expected.replay-refused': message('First send accepted and sessions ended; the second refused, and the new session stays open.'),

  // What the service did: an answer and what became of the sessions.
  'conformance.actual.one': message('{{answer}}; {{sessions}}', { answer: param.phrase, sessions: param.phrase }),
  'conformance.actual.replay': message('first send: {{first}}. Second send: {{second}}', { first: param.phrase, second: param.phrase }),
  'conformance.actual.replayNotTried': message('first send: {{first}}. Not sent again: the first send did not end the sessions, so a replay proves nothing', { first: param.phrase }),
  'conformance.answer.accepted': message('accepted ({{status}})', { status: param.count }),
  'conformance.answer.refused': message('refused ({{status}})', { status: param.count }),
  'conformance.answer.saysFailed': message('answered {{status}} with a body that says it failed', { status: param.count }),
  'conformance.answer.answered': message('answered {{status}} ({{code}}), which does not judge the token', { status: param.count, code: param.text }),
  'conformance.answer.noAnswer': message('no answer ({{code}})', { code: param.text }),
  'conformance.sessions.ended': message('the sessions ended'),
  'conformance.sessions.kept': message('the sessions stayed open'),
  'conformance.sessions.notChecked': message('whether sessions ended could not be checked on this service'),
  'conformance.sessions.noSession': message('no session could be opened for {{uid}} on the sandbox, so none could end', { uid: param.text }),

  // Refusals before anything is sent.
  'conformance.confirmLive': message('This run sends real logout tokens to {{host}}: valid ones end the real sessions of {{uid}}. Type the uid again to confirm. Nothing was sent.', { host: param.text, uid: param.text }),
} as const;
