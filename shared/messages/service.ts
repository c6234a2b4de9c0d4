import { message, param } from '../message-text';

/** Failures talking to the service: the network, its answers, tokens, lists and acts. */
export const SERVICE_MESSAGES = {
  // core/service/http.ts: any request.
  'http.timeout': message('No answer from {{host}} within {{seconds}} s while {{purpose}}. The service may be slow or unreachable. Check your connection and try again.', { host: param.text, seconds: param.count, purpose: param.phrase }),
  'http.timeoutAct': message('No answer from {{host}} within {{seconds}} s while {{purpose}}. The outcome is UNKNOWN: the service may or may not have done it. Check the user (list or search for the uid) before trying again.', { host: param.text, seconds: param.count, purpose: param.phrase }),
  'http.tls': message('Could not connect securely to {{host}}: {{reason}}. Check the address; if the service uses a private certificate authority, install it on this computer. Nothing was sent.', { host: param.text, reason: param.phrase }),
  'http.unreachable': message('Could not reach {{host}}: {{reason}}. Check the address and your connection.', { host: param.text, reason: param.phrase }),
  'http.unreachableAct': message('Could not reach {{host}}: {{reason}}. Nothing was changed. Check the address and your connection.', { host: param.text, reason: param.phrase }),
  'http.cut': message('The connection to {{host}} failed during the request: {{reason}}. Check the address and your connection.', { host: param.text, reason: param.phrase }),
  'http.cutAct': message('The connection to {{host}} failed during the request: {{reason}}. The outcome of {{purpose}} is UNKNOWN: the service may or may not have done it. Check the user before trying again.', { host: param.text, reason: param.phrase, purpose: param.phrase }),
  'http.tooLarge': message('The service’s answer ({{status}}) to {{purpose}} is larger than {{limit}}, more than Privacy Desk reads; it was not read. Check that the service address points at the service’s API; if it does, contact the service.', { status: param.count, purpose: param.phrase, limit: param.phrase }),
  'http.tooLargeRefused': message('The service’s answer ({{status}}) to {{purpose}} is larger than {{limit}}, more than Privacy Desk reads; it was not read. Nothing was changed.', { status: param.count, purpose: param.phrase, limit: param.phrase }),
  'http.tooLargeAct': message('The service’s answer ({{status}}) to {{purpose}} is larger than {{limit}}, more than Privacy Desk reads; it was not read. The outcome is UNKNOWN: the service may or may not have done it. Check the user before trying again.', { status: param.count, purpose: param.phrase, limit: param.phrase }),
  'http.rateLimited': message('The service is limiting requests (429) and refused {{purpose}}. {{wait}} and try again.', { purpose: param.phrase, wait: param.phrase }),
  'http.rateLimitedAct': message('The service is limiting requests (429) and refused {{purpose}}. Nothing was changed. {{wait}} and try again.', { purpose: param.phrase, wait: param.phrase }),
  'http.serverError': message('The service failed ({{status}}) while {{purpose}}. Try again in a moment; if it persists, contact the service’s administrators.', { status: param.count, purpose: param.phrase }),
  'http.serverErrorAct': message('The service failed ({{status}}) while {{purpose}}. The outcome is uncertain: check the user before trying again.', { status: param.count, purpose: param.phrase }),
  'http.redirectTo': message('The service redirected ({{status}}) to {{location}} while {{purpose}}. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).', { status: param.count, location: param.text, purpose: param.phrase }),
  'http.redirectToAct': message('The service redirected ({{status}}) to {{location}} while {{purpose}}. Redirects are not followed: nothing was sent there and nothing was changed. Check the service address (https://, host and path).', { status: param.count, location: param.text, purpose: param.phrase }),
  'http.redirect': message('The service redirected ({{status}}) while {{purpose}}. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).', { status: param.count, purpose: param.phrase }),
  'http.redirectAct': message('The service redirected ({{status}}) while {{purpose}}. Redirects are not followed: nothing was sent there and nothing was changed. Check the service address (https://, host and path).', { status: param.count, purpose: param.phrase }),
  'http.redirectUnsaid': message('The service redirected (the desktop app’s network layer does not say where to) while {{purpose}}. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).', { purpose: param.phrase }),
  'http.redirectUnsaidAct': message('The service redirected (the desktop app’s network layer does not say where to) while {{purpose}}. Redirects are not followed: nothing was sent there and nothing was changed. Check the service address (https://, host and path).', { purpose: param.phrase }),
  'http.unexpectedStatus': message('The service answered {{status}} while {{purpose}}, which Privacy Desk does not expect. Check the service address; if it persists, contact the service.', { status: param.count, purpose: param.phrase }),
  'http.unreadable': message('The service’s answer to {{purpose}} could not be read: {{what}}. Check that the service address points at the service’s API; if it does, contact the service.', { purpose: param.phrase, what: param.phrase }),
  'http.gaveUp': message(
    {
      one: 'Gave up after {{count}} attempt in {{elapsed}} s: a page of the list is asked for again for up to {{limit}} s. The last attempt: {{last}}',
      other: 'Gave up after {{count}} attempts in {{elapsed}} s: a page of the list is asked for again for up to {{limit}} s. The last attempt: {{last}}',
    },
    { count: param.count, elapsed: param.count, limit: param.count, last: param.phrase },
  ),
  'http.gaveUpToken': message(
    {
      one: 'Gave up after {{count}} attempt in {{elapsed}} s: an access token is asked for again for up to {{limit}} s. The last attempt: {{last}}',
      other: 'Gave up after {{count}} attempts in {{elapsed}} s: an access token is asked for again for up to {{limit}} s. The last attempt: {{last}}',
    },
    { count: param.count, elapsed: param.count, limit: param.count, last: param.phrase },
  ),

  // core/service/token-manager.ts: access tokens.
  'token.keysRefused': message('The API key or secret key was refused. Check both against Configuration > General in the service’s administration panel.'),
  'token.scopeRefused': message('The service will not grant this API key the “{{scope}}” scope. Ask the service’s administrators to allow it for this client application.', { scope: param.text }),
  'token.requestRefused': message('The service refused the token request ({{status}}). Check the service address and the keys; if they are right, contact the service.', { status: param.count }),
  'token.unauthorized': message('The service refused a new access token (401) while {{purpose}}. Check the profile’s keys; if they are right, the client application may have lost access — contact the service’s administrators.', { purpose: param.phrase }),
  'token.unauthorizedAct': message('The service refused a new access token (401) while {{purpose}}. Nothing was changed. Check the profile’s keys; if they are right, the client application may have lost access — contact the service’s administrators.', { purpose: param.phrase }),

  // core/service/service-client.ts, list-users.ts, list-all-users.ts.
  'client.noKeys': message('The profile has no API key or secret key. Enter both in the profile before connecting.'),
  'client.badTimeout': message('The request timeout must be a positive number of milliseconds.'),
  'client.unknownScope': message('Unknown scope “{{scope}}”: use authentication or public.', { scope: param.text }),
  'list.badPage': message('The page must be a whole number from 1, and users per page a whole number from 1 to 100.'),
  'list.keyRefused': message('The service refused the API key for listing users. Check the API key against Configuration > General in the service’s administration panel.'),
  'list.notAllowed': message('This API key may not list users: the service refused both a “public” token and the API key parameter. Ask the service’s administrators to allow listing for this client application.'),
  'list.walkStopped': message(
    {
      one: 'The walk through the users list was stopped after {{count}} page, as asked. Start it again to read every page.',
      other: 'The walk through the users list was stopped after {{count}} pages, as asked. Start it again to read every page.',
    },
    { count: param.count },
  ),

  // core/service/service-acts.ts: anonymise and delete.
  'act.unconfirmed': message('The service answered {{status}} while {{purpose}}, but {{problem}}. The outcome is UNKNOWN: the service may or may not have done it. Check the user before trying again.', { status: param.count, purpose: param.phrase, problem: param.phrase }),
  'act.noSuchUser': message('No user with uid “{{uid}}” exists in {{profile}} — it may already have been anonymised or deleted. Check the uid against the request.', { uid: param.text, profile: param.text }),
  'act.scopeMissing': message('The service refused {{purpose}} (403): this API key’s token lacks the “authentication” scope. Nothing was changed. Ask the service’s administrators to grant it.', { purpose: param.phrase }),

  // core/service/logout-outcome.ts: what a logout's answer means.
  'logout.unreadableSuccess': message('The service answered {{status}} to the logout, but {{problem}}, so whether the user’s sessions ended is UNKNOWN. Check that the service address points at the service’s API.', { status: param.count, problem: param.phrase }),
  'logout.saysFailed': message('The service answered {{status}} to the logout, but its answer says it failed ({{sign}}), so whether the user’s sessions ended is UNKNOWN. A logout can safely be sent again.', { status: param.count, sign: param.text }),
  'logout.redirectTo': message('The service redirected ({{status}}) to {{location}} while handling the logout. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).', { status: param.count, location: param.text }),
  'logout.redirect': message('The service redirected ({{status}}) while handling the logout. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).', { status: param.count }),
  'logout.rateLimited': message('The service is limiting requests (429) and did not look at the logout token. {{wait}} and send it again.', { wait: param.phrase }),
  'logout.serverError': message('The service failed ({{status}}) while handling the logout; the user’s sessions may not have ended. Send the logout again, and contact the service if it persists.', { status: param.count }),
  'logout.routeNotFound': message('The logout route was not found (404): the service does not know this application name, or the service address is wrong. Check both against the service’s administration panel.'),
  'logout.rejected': message('The service refused the logout token ({{status}}). Check the claims; “Verify a token” (token verify) explains what is wrong with a token.', { status: param.count }),

  // core/service/sandbox-inspection.ts.
  'sandbox.noSuchUser': message('The sandbox has no user “{{uid}}” (or this address is not a sandbox): no session was opened. Check the uid.', { uid: param.text }),
  'sandbox.notSandbox': message('This address did not open a session the way the sandbox does (answer {{status}}): it may not be the Privacy Desk sandbox.', { status: param.count }),
} as const;
