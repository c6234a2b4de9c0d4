import type { Credentials, Profile } from '../shared/profile';
import type { ErasureAction, ErasureResult, ListUsersInput, UserPage } from '../shared/users';
import type { BuiltLogoutToken, LogoutOptions, LogoutResult, TokenVerification } from '../shared/logout';

/** The fetch the core uses: global fetch in Node, Electron's net.fetch in the app. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export type Scope = 'authentication' | 'public';

export interface ServiceClientOptions {
  profile: Profile;
  credentials: Credentials;
  fetch?: FetchLike;
  /** Per request; default 30 000. */
  timeoutMs?: number;
  /** Retries of the (safe) list call on network errors, 5xx and 429; default 3. */
  maxListRetries?: number;
  /** Test hook: the clock, in milliseconds. */
  now?: () => number;
  /** Test hook: how the client waits between retries. */
  sleep?: (ms: number) => Promise<void>;
}

export interface TokenInfo {
  scope: Scope;
  /** Unix milliseconds. */
  expiresAt: number;
}

/** Everything the app and the CLI can ask of the service. No method returns or throws a secret or a token. */
export interface ServiceClient {
  readonly profile: Profile;
  listUsers(input?: ListUsersInput): Promise<UserPage>;
  /** Irreversible: call only through the erasure gate (core/erasure.ts). */
  anonymizeUser(uid: string): Promise<ErasureResult>;
  /** Irreversible: call only through the erasure gate (core/erasure.ts). */
  deleteUser(uid: string): Promise<ErasureResult>;
  eraseUser(action: ErasureAction, uid: string): Promise<ErasureResult>;
  buildLogoutToken(uid: string, options?: LogoutOptions): Promise<BuiltLogoutToken>;
  sendLogout(uid: string, options?: LogoutOptions): Promise<LogoutResult>;
  verifyLogoutToken(jwt: string): Promise<TokenVerification>;
  /** Gets (or reuses) a token for the scope and says when it expires; the token itself never leaves. */
  checkToken(scope: Scope): Promise<TokenInfo>;
}
