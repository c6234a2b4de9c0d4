import { invalidInput, PrivacyDeskError } from '../../shared/errors';
import { listUsersInputSchema, type ListUsersInput, type UserPage } from '../../shared/users';
import { msg } from '../../shared/messages';
import { LIST_MAX_BODY_BYTES, readJson, sendRequest, statusError, unexpectedBody, unreadableBodyText, type HttpDeps, type HttpRequest, type HttpResponse } from './http';
import { ListShapeError, parseUserPage } from '../list-parser';
import { redactSecrets } from './redact';
import { withRetry } from '../retry';
import { sendAuthorized, type TokenManager } from './token-manager';

export interface UserListerDeps {
  http: HttpDeps;
  tokens: TokenManager;
  baseUrl: string;
  apiKey: string;
  maxRetries: number;
  /** The most one list call may take, retries and waits included (on http.now's clock). */
  budgetMs: number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Lists users with a `public` token; if the service will not give that
 * scope (token endpoint invalid_scope, or 403 on the list), falls back to
 * the `api_key` query parameter (docs/SERVICE-API.md#listing-with-the-api-key) and keeps doing so for this client.
 * Listing is read-only, so network errors, timeouts, 5xx and 429 are retried,
 * within a time budget for the whole call (by default twice the request timeout).
 */
export class UserLister {
  #useApiKey = false;
  readonly #deps: UserListerDeps;

  constructor(deps: UserListerDeps) {
    this.#deps = deps;
  }

  /** True once the service refused the public scope and the API key parameter is used instead. */
  get usesApiKey(): boolean {
    return this.#useApiKey;
  }

  async list(input: ListUsersInput = {}): Promise<UserPage> {
    const parsed = listUsersInputSchema.safeParse(input);
    if (!parsed.success) {
      throw invalidInput(msg('list.badPage'));
    }
    const { page, perPage } = parsed.data;
    return withRetry(({ remainingMs }) => this.#listOnce(page, perPage, remainingMs), {
      maxRetries: this.#deps.maxRetries,
      sleep: this.#deps.sleep,
      budget: { totalMs: this.#deps.budgetMs, now: this.#deps.http.now },
    });
  }

  async #listOnce(page: number, perPage: number, remainingMs: number): Promise<UserPage> {
    // Whole numbers (the input was parsed): nothing in them to encode.
    const query = `page=${page}&per_page=${perPage}`;
    const request: HttpRequest = {
      method: 'GET',
      url: `${this.#deps.baseUrl}/api/v1/users?${query}`,
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      purpose: msg('purpose.listUsers', { page }),
      maxBodyBytes: LIST_MAX_BODY_BYTES,
      timeoutMs: remainingMs,
    };
    if (!this.#useApiKey) {
      const response = await this.#withToken(request);
      if (response) return this.#read(response, request, { page, perPage });
      this.#useApiKey = true;
    }
    // The URL now holds the API key: it goes nowhere but the request itself (messages name only the host).
    const keyed: HttpRequest = { ...request, url: `${this.#deps.baseUrl}/api/v1/users?${query}&${new URLSearchParams({ api_key: this.#deps.apiKey }).toString()}` };
    const response = await sendRequest(this.#deps.http, keyed);
    if (response.status === 401) {
      throw new PrivacyDeskError({
        code: 'INVALID_CREDENTIALS',
        status: 401,
        requestId: response.requestId,
        text: msg('list.keyRefused'),
      });
    }
    if (response.status === 403) {
      throw new PrivacyDeskError({
        code: 'INSUFFICIENT_SCOPE',
        status: 403,
        requestId: response.requestId,
        text: msg('list.notAllowed'),
      });
    }
    return this.#read(response, request, { page, perPage });
  }

  /** The token route's answer, or undefined when the public scope is refused and the API key must be used. */
  async #withToken(request: HttpRequest): Promise<HttpResponse | undefined> {
    try {
      const response = await sendAuthorized(this.#deps.http, this.#deps.tokens, 'public', request);
      return response.status === 403 ? undefined : response;
    } catch (error) {
      if (error instanceof PrivacyDeskError && error.code === 'INSUFFICIENT_SCOPE') return undefined;
      throw error;
    }
  }

  #read(response: HttpResponse, request: HttpRequest, asked: { page: number; perPage: number }): UserPage {
    if (response.status !== 200) throw statusError(response, request, [this.#deps.apiKey, ...this.#deps.tokens.liveTokenValues()], this.#deps.http.now());
    const body = readJson(response);
    if (body.kind === 'empty') throw unexpectedBody(response, request.purpose, msg('body.empty'));
    if (body.kind === 'text') throw unexpectedBody(response, request.purpose, unreadableBodyText(body.problem));
    try {
      return parseUserPage(body.value, response.headers, asked);
    } catch (error) {
      if (error instanceof ListShapeError) {
        throw unexpectedBody(response, request.purpose, error.text, error.said === undefined ? undefined : redactSecrets(error.said, this.#deps.http.secrets()));
      }
      throw error;
    }
  }
}
