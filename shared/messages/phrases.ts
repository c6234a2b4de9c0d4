import { message, param } from '../message-text';

/** Parts of sentences: what was being done, why a connection failed, durations. Other messages put them in. */
export const PHRASE_MESSAGES = {
  // An erasure action, in the forms sentences need.
  'action.verb.anonymize': message('anonymise'),
  'action.verb.delete': message('delete'),
  'action.done.anonymize': message('anonymised'),
  'action.done.delete': message('deleted'),

  // What a request was for: "No answer … while {{purpose}}", "The service refused {{purpose}}".
  'purpose.listUsers': message('listing users (page {{page}})', { page: param.count }),
  'purpose.anonymizeUser': message('anonymising user “{{uid}}”', { uid: param.text }),
  'purpose.deleteUser': message('deleting user “{{uid}}”', { uid: param.text }),
  'purpose.sendLogout': message('sending the logout for user “{{uid}}”', { uid: param.text }),
  'purpose.getToken': message('getting an access token (scope {{scope}})', { scope: param.text }),
  'purpose.readSandboxUser': message('reading the sandbox’s state of user “{{uid}}”', { uid: param.text }),
  'purpose.simulateLogin': message('simulating a login of user “{{uid}}” on the sandbox', { uid: param.text }),

  // Why a connection failed (the system's own code is shown apart, as a technical detail).
  'reason.connectionRefused': message('the connection was refused (nothing answers at that address)'),
  'reason.hostNotFound': message('the host name could not be found'),
  'reason.hostLookupFailed': message('the host name could not be looked up'),
  'reason.hostUnreachable': message('the host is unreachable'),
  'reason.networkUnreachable': message('the network is unreachable'),
  'reason.offline': message('this computer is offline'),
  'reason.connectionCut': message('the connection was cut'),
  'reason.connectionTimedOut': message('the connection timed out'),
  'reason.closedBeforeAnswer': message('the connection closed before an answer came'),
  'reason.failedBeforeAnswer': message('the request failed before an answer came'),
  'reason.certificate': message('its certificate was not accepted'),

  // Why an answer could not be used.
  'body.empty': message('the body is empty'),
  'body.notJson': message('it is not JSON'),
  'body.notObject': message('it is not a JSON object'),
  'body.noAccessToken': message('it has no access_token'),
  'body.notReadableJson': message('its answer could not be read as JSON'),
  'body.reportedFailure': message('it reported a failure'),
  'body.nestedTooDeep': message('it is JSON nested more than {{levels}} levels deep', { levels: param.count }),
  'body.unreadable': message('its answer could not be read: {{why}}', { why: param.phrase }),
  'body.saysFailed': message('its answer says it failed ({{sign}})', { sign: param.text }),
  'body.userNotObject': message('user number {{number}} is not an object', { number: param.count }),
  'body.neitherListNorObject': message('it is neither a list nor an object'),
  'body.listFailure': message('the service reported a failure'),
  'body.noUserList': message('it holds no list of users (expected data, users, or a JSON array)'),

  // How long; how big.
  'duration.seconds': message('{{count}} s', { count: param.count }),
  'duration.minutes': message('{{count}} min', { count: param.count }),
  'duration.hours': message('{{count}} h', { count: param.count }),
  'duration.days': message({ one: '{{count}} day', other: '{{count}} days' }, { count: param.count }),
  'size.kilobytes': message('{{count}} KB', { count: param.count }),
  'size.megabytes': message('{{count}} MB', { count: param.count }),

  // How long to wait before trying again, as the service asked.
  'wait.seconds': message('Wait {{seconds}} s', { seconds: param.count }),
  'wait.little': message('Wait a little'),

  // An act's outcome in a few words (shared/errors.ts OUTCOMES).
  'outcome.not-sent': message('not sent'),
  'outcome.refused': message('refused'),
  'outcome.done': message('done'),
  'outcome.unknown': message('unknown'),

  'address.old': message('its old address'),
  'address.other': message('another address'),
} as const;
