import type { Credentials, Profile } from '../shared/profile';
import type { ListUsersInput, UserPage } from '../shared/users';
import type { BuiltLogoutToken, LogoutOptions, TokenVerification } from '../shared/logout';

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
  /** The most one list call may take, all attempts and waits together; default twice timeoutMs. */
  listBudgetMs?: number;
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

/**
 * What anyone holding a client may ask of the service: reads, token checks, and
 * building or verifying logout tokens. It has no irreversible call: anonymise,
 * delete and sending a logout exist only inside the erasure gate (core/service/erasure-gate.ts).
 * No method returns or throws a secret or a token.
 */
export interface ServiceClient {
  readonly profile: Profile;
  listUsers(input?: ListUsersInput): Promise<UserPage>;
  buildLogoutToken(uid: string, options?: LogoutOptions): Promise<BuiltLogoutToken>;
  verifyLogoutToken(jwt: string): Promise<TokenVerification>;
  /** Gets (or reuses) a token for the scope and says when it expires; the token itself never leaves. */
  checkToken(scope: Scope): Promise<TokenInfo>;
}
