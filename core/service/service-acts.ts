import { PrivacyDeskError } from '../../shared/errors';
import type { ErasureAction, ErasureResult } from '../../shared/users';
import type { LogoutOptions, LogoutResult } from '../../shared/logout';
import type { Profile } from '../../shared/profile';
import { encodeUidSegment } from '../../shared/uid';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { actionPhrases, unknownAction } from '../action-words';
import { failureInBody, readJson, sendRequest, serviceDescription, statusError, unreadableBodyText, type HttpDeps, type HttpRequest, type HttpResponse } from './http';
import { logoutRefusal } from './logout-outcome';
import { buildLogoutToken, type LogoutTokenContext } from './logout-token';
import { sendAuthorized, type TokenManager } from './token-manager';

/**
 * The service's irreversible calls. Only the erasure gate (core/service/erasure-gate.ts)
 * ever holds this object: it validates, confirms and audits before calling.
 * Nothing here validates again or retries: a retried erasure is the batch
 * runner's decision, made on the outcome.
 */
export interface ServiceActs {
  erase(action: ErasureAction, uid: string): Promise<ErasureResult>;
  sendLogout(uid: string, options?: LogoutOptions): Promise<LogoutResult>;
}

export interface ServiceInternals {
  profile: Profile;
  http: HttpDeps;
  tokens: TokenManager;
  tokenContext: LogoutTokenContext;
}

export function createServiceActs({ profile, http, tokens, tokenContext }: ServiceInternals): ServiceActs {
  const baseUrl = profile.baseUrl;

  async function erase(action: ErasureAction, uid: string): Promise<ErasureResult> {
    const words = actionPhrases(action);
    const segment = encodeUidSegment(uid);
    const request: HttpRequest = {
      ...eraseRoute(action, `${baseUrl}/api/v1/users/${segment}`),
      purpose: words.purpose(uid),
      irreversible: true,
    };
    // Never retried: only the single 401 token refresh inside sendAuthorized, where the service refused the first attempt.
    const response = await sendAuthorized(http, tokens, 'authentication', request);
    const { status, requestId } = response;
    if (status >= 200 && status < 300) {
      const problem = successProblem(response);
      if (problem) {
        const said = serviceDescription(response, http.secrets());
        throw new PrivacyDeskError({
          code: 'UNEXPECTED_RESPONSE',
          outcome: 'unknown',
          status,
          requestId,
          text: msg('act.unconfirmed', { status, purpose: request.purpose, problem }),
          ...(said ? { quote: { from: 'service' as const, text: said } } : {}),
        });
      }
      const result: ErasureResult = { action, uid, outcome: 'done', status, completedAt: new Date(http.now()).toISOString() };
      if (requestId !== undefined) result.requestId = requestId;
      return result;
    }
    if (status === 404) {
      throw new PrivacyDeskError({
        code: 'NOT_FOUND',
        status,
        requestId,
        text: msg('act.noSuchUser', { uid, profile: profile.name }),
      });
    }
    if (status === 403) {
      throw new PrivacyDeskError({
        code: 'INSUFFICIENT_SCOPE',
        status,
        requestId,
        text: msg('act.scopeMissing', { purpose: request.purpose }),
      });
    }
    throw statusError(response, request, http.secrets(), http.now());
  }

  async function sendLogout(uid: string, options?: LogoutOptions): Promise<LogoutResult> {
    const built = await buildLogoutToken(uid, options, tokenContext);
    const request: HttpRequest = {
      method: 'POST',
      url: `${baseUrl}/auth/logout/${encodeURIComponent(profile.applicationName)}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ logout_token: built.token }).toString(),
      purpose: msg('purpose.sendLogout', { uid }),
    };
    // Any HTTP answer, refusals included, is a result for the tester to show; only transport failures throw.
    const response = await sendRequest(http, request);
    const body = readJson(response);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const result: LogoutResult = {
      ...built,
      uid,
      outcome: 'done',
      status: response.status,
      ok: response.status >= 200 && response.status < 300,
      headers,
      body: body.kind === 'json' ? body.value : response.text,
      elapsedMs: response.elapsedMs,
    };
    if (response.requestId !== undefined) result.requestId = response.requestId;
    const refusal = logoutRefusal(result, http.now());
    if (refusal) {
      result.outcome = refusal.outcome;
      result.errorCode = refusal.code;
    }
    return result;
  }

  return { erase, sendLogout };
}

/** Each action's request, and nothing for anything else: never DELETE because an action is "not anonymize". */
function eraseRoute(action: ErasureAction, userUrl: string): Pick<HttpRequest, 'method' | 'url' | 'headers' | 'body'> {
  // Anonymise carries an empty JSON object: API requests are JSON (docs/SERVICE-API.md#requests-and-content-types), and servers that
  // parse JSON bodies strictly refuse a JSON Content-Type with no body at all. Delete carries no body and so no Content-Type: a DELETE
  // with a body makes Node's fetch close the connection afterwards, and a batch would then pay a new connection (a TLS handshake) per item.
  switch (action) {
    case 'anonymize':
      return { method: 'POST', url: `${userUrl}/anonymize`, body: '{}', headers: { Accept: 'application/json', 'Content-Type': 'application/json' } };
    case 'delete':
      return { method: 'DELETE', url: userUrl, headers: { Accept: 'application/json' } };
    default:
      throw unknownAction(action satisfies never);
  }
}

/** Why a 2xx is not a readable success, or undefined when it is (empty, or JSON that does not say it failed: http.ts failureInBody). */
function successProblem(response: HttpResponse): MessageText | undefined {
  const body = readJson(response);
  if (body.kind === 'empty') return undefined;
  if (body.kind === 'text') return body.problem === 'not JSON' ? msg('body.notReadableJson') : msg('body.unreadable', { why: unreadableBodyText(body.problem) });
  const sign = failureInBody(body.value);
  return sign === undefined ? undefined : msg('body.saysFailed', { sign });
}

