import type {
  AppInfo,
  BridgeMethod,
  BridgeOutput,
  BridgeParsedInput,
  ConnectionCheck,
  ProfileView,
  SandboxUserState,
} from '../shared/contract';
import type { AuditEntry } from '../shared/audit';
import type { Credentials } from '../shared/profile';
import type { ErasureAction, ErasureResult, ListUsersInput, UserPage } from '../shared/users';
import type { JobRegistry } from './jobs';
import type { BuiltLogoutToken, LogoutOptions, LogoutResult, TokenVerification } from '../shared/logout';

/**
 * What the bridge handlers need from the core's Desk facade (core/desk.ts).
 * Kept narrow on purpose: the handlers stay thin wrappers, and the real Desk is
 * checked against this shape where the runtime hands it over.
 */
export interface DeskPort {
  listProfiles(): Promise<{ profiles: ProfileView[]; activeId: string | null }>;
  saveProfile(input: BridgeParsedInput<'profiles.save'>): Promise<ProfileView>;
  removeProfile(id: string, confirmName: string): Promise<unknown>;
  setActiveProfile(id: string): Promise<unknown>;
  ensureSandboxProfile(input: { url: string; credentials: Credentials; applicationName?: string }): Promise<unknown>;
  testConnection(profileId: string): Promise<ConnectionCheck[]>;
  listUsers(profileId: string, input: ListUsersInput): Promise<UserPage>;
  erase(input: { profileId: string; action: ErasureAction; uid: string; confirmUid: string; reference?: string }): Promise<ErasureResult>;
  buildLogoutToken(profileId: string, uid: string, options?: LogoutOptions): Promise<BuiltLogoutToken>;
  sendLogout(profileId: string, uid: string, options?: LogoutOptions): Promise<LogoutResult>;
  verifyLogoutToken(profileId: string, token: string): Promise<TokenVerification>;
  sandboxUserState(profileId: string, uid: string): Promise<SandboxUserState | null>;
  auditEntries(limit: number): Promise<AuditEntry[]>;
  keychainStatus(): { available: boolean; problem?: string };
}

export interface HandlerContext {
  desk: DeskPort;
  appInfo: () => AppInfo;
  /** Long work (users.walk…) runs here and reports through the runtime's event hub. */
  jobs: JobRegistry;
}

/** One handler per contract method; a missing method is a compile error. */
export type BridgeHandlers = { [M in BridgeMethod]: (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>> };

/** The handlers of one area (profiles, users…), merged into BridgeHandlers. */
export type AreaHandlers<M extends BridgeMethod> = Pick<BridgeHandlers, M>;
