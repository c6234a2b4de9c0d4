import { PrivacyDeskError } from '../../shared/errors';
import type { LogoutResult } from '../../shared/logout';
import { failureInBody, safeLocation } from './http';
import { parseRetryAfter } from '../retry';
import { parseBoundedJson } from '../bounded-json';

/**
 * What a non-2xx logout answer means, as one error family member. A 4xx is the
 * service judging the token; 429 and 5xx are about the service, not the token,
 * so they must not send the operator hunting through the claims.
 */
export function logoutRefusal(result: LogoutResult, nowMs = Date.now()): PrivacyDeskError | null {
  const { status, requestId } = result;
  if (result.ok) {
    // A 2xx whose JSON says it failed: the service may or may not have ended the sessions (http.ts failureInBody).
    const sign = failureInBody(result.body);
    if (sign !== undefined) {
      const said = serviceWords(result.body);
      return new PrivacyDeskError({
        code: 'UNEXPECTED_RESPONSE',
        outcome: 'unknown',
        status,
        requestId,
        message: `The service answered ${status} to the logout, but its answer says it failed (${sign})${said ? `: “${said}”` : ''}, so whether the user's sessions ended is UNKNOWN. A logout can safely be sent again.`,
      });
    }
    // A 2xx whose body is not JSON (an HTML page, a cut document) is rarely the service's logout route: not a known success.
    if (typeof result.body !== 'string' || result.body.trim() === '') return null;
    const parsed = parseBoundedJson(result.body);
    const unread = parsed.ok || parsed.problem === 'not JSON' ? 'could not be read as JSON' : `could not be read: it is JSON ${parsed.problem}`;
    return new PrivacyDeskError({
      code: 'UNEXPECTED_RESPONSE',
      outcome: 'unknown',
      status,
      requestId,
      message: `The service answered ${status} to the logout, but its answer ${unread}, so whether the user's sessions ended is UNKNOWN. Check that the service address points at the service's API.`,
    });
  }
  if (status >= 300 && status < 400) {
    const location = safeLocation(result.headers.location ?? null);
    return new PrivacyDeskError({
      code: 'UNEXPECTED_RESPONSE',
      outcome: 'refused',
      status,
      requestId,
      message: `The service redirected (${status})${location ? ` to ${location}` : ''} while handling the logout. Redirects are not followed: nothing was sent there. Check the service address (https://, host and path).`,
    });
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(result.headers['retry-after'], nowMs);
    const wait = retryAfterSeconds !== undefined ? `Wait ${retryAfterSeconds} s` : 'Wait a moment';
    return new PrivacyDeskError({ code: 'RATE_LIMITED', status, requestId, retryAfterSeconds, message: `The service is limiting requests (429) and did not look at the logout token. ${wait} and send it again.` });
  }
  if (status >= 500) {
    return new PrivacyDeskError({ code: 'SERVER_ERROR', status, requestId, message: `The service failed (${status}) while handling the logout; the user's sessions may not have ended. Send the logout again, and contact the service if it persists.` });
  }
  if (status === 404) {
    return new PrivacyDeskError({
      code: 'APPLICATION_NOT_FOUND',
      status,
      requestId,
      message: 'The logout route was not found (404): the service does not know this application name, or the service address is wrong. Check both against the service’s administration panel.',
    });
  }
  const said = serviceWords(result.body);
  return new PrivacyDeskError({
    code: 'LOGOUT_REJECTED',
    status,
    requestId,
    message: `The service refused the logout token (${status})${said ? `: “${said}”` : ''}. Check the claims; "token verify" explains what is wrong with a token.`,
  });
}

function serviceWords(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { error_description: description, error } = body as { error_description?: unknown; error?: unknown };
    const words = [description, error].find((value): value is string => typeof value === 'string');
    return (words ?? '').slice(0, 300);
  }
  return typeof body === 'string' ? body.slice(0, 300) : '';
}
