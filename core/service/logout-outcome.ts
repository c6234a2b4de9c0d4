import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { LogoutResult } from '../../shared/logout';
import { failureInBody, safeLocation, unreadableBodyText } from './http';
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
      return new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown', status, requestId, text: msg('logout.saysFailed', { status, sign }), ...serviceQuote(result.body) });
    }
    // A 2xx whose body is not JSON (an HTML page, a cut document) is rarely the service's logout route: not a known success.
    if (typeof result.body !== 'string' || result.body.trim() === '') return null;
    const parsed = parseBoundedJson(result.body);
    const problem = parsed.ok || parsed.problem === 'not JSON' ? msg('body.notReadableJson') : msg('body.unreadable', { why: unreadableBodyText(parsed.problem) });
    return new PrivacyDeskError({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown', status, requestId, text: msg('logout.unreadableSuccess', { status, problem }) });
  }
  if (status >= 300 && status < 400) {
    const location = safeLocation(result.headers.location ?? null);
    return new PrivacyDeskError({
      code: 'UNEXPECTED_RESPONSE',
      outcome: 'refused',
      status,
      requestId,
      text: location ? msg('logout.redirectTo', { status, location }) : msg('logout.redirect', { status }),
    });
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(result.headers['retry-after'], nowMs);
    const wait = retryAfterSeconds !== undefined ? msg('wait.seconds', { seconds: retryAfterSeconds }) : msg('wait.little');
    return new PrivacyDeskError({ code: 'RATE_LIMITED', status, requestId, retryAfterSeconds, text: msg('logout.rateLimited', { wait }) });
  }
  if (status >= 500) {
    return new PrivacyDeskError({ code: 'SERVER_ERROR', status, requestId, text: msg('logout.serverError', { status }) });
  }
  if (status === 404) {
    return new PrivacyDeskError({
      code: 'APPLICATION_NOT_FOUND',
      status,
      requestId,
      text: msg('logout.routeNotFound'),
    });
  }
  return new PrivacyDeskError({ code: 'LOGOUT_REJECTED', status, requestId, text: msg('logout.rejected', { status }), ...serviceQuote(result.body) });
}

/** The service's own words about the logout, quoted untranslated (nothing when it said none). */
function serviceQuote(body: unknown): { quote?: { from: 'service'; text: string } } {
  const said = serviceWords(body);
  return said ? { quote: { from: 'service', text: said } } : {};
}

function serviceWords(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { error_description: description, error } = body as { error_description?: unknown; error?: unknown };
    const words = [description, error].find((value): value is string => typeof value === 'string');
    return (words ?? '').slice(0, 300);
  }
  return typeof body === 'string' ? body.slice(0, 300) : '';
}
