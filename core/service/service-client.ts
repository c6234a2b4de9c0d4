import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { normalizeBaseUrl } from '../input-problems';
import { DEFAULT_TIMEOUT_MS, type HttpDeps } from './http';
import { UserLister } from './list-users';
import { buildLogoutToken, verifyLogoutToken, type LogoutTokenContext } from './logout-token';
import { realSleep } from '../retry';
import { createServiceActs, type ServiceActs } from './service-acts';
import { TokenManager } from './token-manager';
import type { ServiceClient, ServiceClientOptions } from '../types';

const DEFAULT_MAX_LIST_RETRIES = 3;

/** A connection to one service: what anyone may read, and the irreversible acts that only the gate holds. */
export interface ServiceConnection {
  client: ServiceClient;
  acts: ServiceActs;
}

/**
 * Opens a connection for a profile. It holds the credentials and tokens in
 * memory; nothing it returns or throws contains the secret key, an access
 * token or an Authorization header. Only core/service/erasure-gate.ts may call this
 * (ESLint enforces it): everything else gets the read-only ServiceClient.
 */
export function connectToService(options: ServiceClientOptions): ServiceConnection {
  const profile = Object.freeze({ ...options.profile, baseUrl: normalizeBaseUrl(options.profile.baseUrl) });
  const { apiKey, apiSecret } = options.credentials;
  if (!apiKey || !apiSecret) throw invalidInput(msg('client.noKeys'));
  const now = options.now ?? Date.now;
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw invalidInput(msg('client.badTimeout'));

  // secrets() runs only once requests are under way, after `tokens` exists.
  const secrets = (): Iterable<string | undefined> => [apiSecret, apiKey, ...tokens.liveTokenValues()];
  const http: HttpDeps = { fetch: fetchImpl, timeoutMs, now, secrets };
  const sleep = options.sleep ?? realSleep;
  const maxRetries = options.maxListRetries ?? DEFAULT_MAX_LIST_RETRIES;
  const tokens = new TokenManager(http, { apiKey, apiSecret }, profile.baseUrl, { maxRetries, sleep });
  const lister = new UserLister({
    http,
    tokens,
    baseUrl: profile.baseUrl,
    apiKey,
    maxRetries,
    // Four attempts of a full timeout each would keep the operator waiting two minutes for a silent service.
    budgetMs: options.listBudgetMs ?? timeoutMs * 2,
    sleep,
  });
  const tokenContext: LogoutTokenContext = { apiSecret, apiKey, applicationName: profile.applicationName, now };

  const client: ServiceClient = {
    profile,
    listUsers: (input) => lister.list(input),
    buildLogoutToken: (uid, logoutOptions) => buildLogoutToken(uid, logoutOptions, tokenContext),
    verifyLogoutToken: (jwt) => verifyLogoutToken(jwt, tokenContext),
    checkToken: (scope) => {
      if (scope !== 'authentication' && scope !== 'public') return Promise.reject(invalidInput(msg('client.unknownScope', { scope: String(scope) })));
      return tokens.info(scope);
    },
  };
  return { client, acts: createServiceActs({ profile, http, tokens, tokenContext }) };
}

/** The read-only client: listing, tokens, logout-token preview and verification. It cannot erase or log out. */
export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return connectToService(options).client;
}
