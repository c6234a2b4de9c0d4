import { userInfo } from 'node:os';
import { PrivacyDeskError, invalidInput, toErrorInfo } from '../shared/errors';
import { durationText, msg } from '../shared/messages';
import type { AuditEntry, AuditExport, AuditExportFormat, AuditFilter, AuditReading, ChainVerdict } from '../shared/audit';
import type { ConnectionCheck, ProfileView, SandboxUserState } from '../shared/contract';
import type { BuiltLogoutToken, LogoutOptions, LogoutResult, TokenVerification } from '../shared/logout';
import { isLocalBaseUrl, type Credentials, type Profile } from '../shared/profile';
import { listUsersInputSchema, type ErasureResult, type ListUsersInput, type UserPage } from '../shared/users';
import { assertValidUid } from './input-problems';
import { buildAuditExport } from './audit-export';
import { openAuditLog } from './audit-log';
import { acknowledgeFinding, type AcknowledgeRequest } from './audit-anchor-acknowledge';
import { anchorInCredentialStore, type AuditAnchorStore } from './audit-anchor';
import { upgradeLegacyEntry } from './legacy-audit-entry';
import { baseUrlOrigin } from '../shared/credential-origin';
import type { CredentialStore, StoredCredentials } from './credential-store';
import { createDeskProfiles, type SaveProfileInput } from './desk-profiles';
import { fetchSandboxUserState, openGatedConnection, simulateSandboxLogin, type ConformanceOrder, type ErasureOrder, type GatedConnection, type ServiceConnection } from './service/erasure-gate';
import type { ConformanceRun } from '../shared/logout-conformance';
import { isoWithOffset } from './local-time';
import { checkLogoutOptions, exposedToken } from './logout-exposure';
import { openProfileStore } from './profile-store';
import { createReceipt, receiptSource, type Receipt, type ReceiptLocale, type ReceiptSubject } from './receipt';
import { listAllUsers, type ListAllProgress } from './list-all-users';
import { createUserIndexes, INDEX_PAGE_BUDGET_MS, type WalkOptions } from './user-index';
import { createErasureFeed, serviceKey } from './erasure-feed';
import type { ErasedSinceAnswer, UserLookupAnswer, UserSearchAnswer } from '../shared/user-search';
import type { FetchLike, ServiceClient, ServiceClientOptions } from './types';
import { createDeskBatch } from './batch/desk-batch';
import { openLocalRequestStore } from './requests/local-request-store';
import type { RequestStore } from './requests/request-store';
import type { AuditStore } from './audit-store';
import type { DeskStores } from './team/team-stores';
import { createFileAuditQuery } from './audit-query-file';

export interface DeskOptions {
  dataDir: string;
  credentialStore: CredentialStore;
  /** Why the keychain is not used (shown to the operator); set when credentialStore is the session fallback. */
  credentialProblem?: string;
  /** Where the audit trail's head is kept outside the file (core/audit-anchor.ts); default: beside the credentials. */
  auditAnchor?: AuditAnchorStore;
  fetch?: FetchLike;
  via: AuditEntry['via'];
  timeoutMs?: number;
  /** The app's version, written into every audit entry. */
  appVersion?: string;
  /** The OS user acting, written into every audit entry; default the current OS user. */
  operator?: string;
  /** The clock, in milliseconds (tests move it by hand); default Date.now. */
  now?: () => number;
  /** How long a walk's user index is kept before search asks for a new walk (default 15 minutes). */
  userIndexTtlMs?: number;
  /** Test hook: how a connection is opened (the gate still wraps it); defaults to the real service client. */
  connect?: (options: ServiceClientOptions) => ServiceConnection;
  /** Test hook: a batch run's waits (backoff, Retry-After), and the service client's between attempts of a read or a token, without the wall clock (e.g. moving a sandbox clock). */
  batchSleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long a batch item is tried before it is failed (runBatch's retryForMs; default 10 minutes): the CLI's --retry-for. */
  batchRetryForMs?: number;
  /** Where the request register's key is kept (core/requests/register-crypto.ts), opened on first need; default: beside the credentials. */
  requestKeyStore?: () => Promise<CredentialStore>;
  /**
   * Where the audit trail, the batch jobs and the request register are kept instead of the data folder's files: the
   * team database in team mode (core/team/team-stores.ts deskStoresFor). Absent: the local files, as always.
   */
  stores?: DeskStores;
}

export interface TemporaryConnection {
  name?: string;
  baseUrl: string;
  applicationName: string;
  credentials: Credentials;
}

/** Id of the connection built from --base-url/--app: kept in memory, never in profiles.json or the keychain. */
export const TEMPORARY_PROFILE_ID = 'temporary';

export type Desk = ReturnType<typeof createDesk>;

/**
 * The facade the CLI and the app's bridge handlers share: profiles and their
 * credentials, one cached service client per profile (so tokens are reused),
 * and every irreversible act routed through the erasure gate with an audit entry.
 */
export function createDesk(options: DeskOptions) {
  const { dataDir, credentialStore, via } = options;
  const profileStore = openProfileStore(dataDir);
  const stores = options.stores;
  const audit: AuditStore = stores?.audit ?? openAuditLog(dataDir, { anchor: options.auditAnchor ?? anchorInCredentialStore(credentialStore, dataDir), ...(options.now ? { now: options.now } : {}) });
  const connections = new Map<string, Promise<GatedConnection>>();
  const operator = options.operator ?? currentOsUser();
  let temporary: { profile: Profile; credentials: Credentials } | null = null;
  const forgetProfile = (id: string) => {
    connections.delete(id);
    userIndexes.forget(id);
  };
  const profiles = createDeskProfiles({ store: profileStore, credentialStore, onChange: forgetProfile });

  const getProfile = async (profileId: string): Promise<Profile> =>
    temporary && profileId === TEMPORARY_PROFILE_ID ? temporary.profile : profiles.getProfile(profileId);

  const credentialsFor = async (profile: Profile): Promise<Credentials> => {
    if (temporary && profile.id === TEMPORARY_PROFILE_ID) return temporary.credentials;
    const found = await credentialStore.get(profile.id);
    if (found) return { apiKey: found.apiKey, apiSecret: await checkedOrigin(profile, found) };
    if (credentialStore.kind === 'session') {
      throw new PrivacyDeskError({
        code: 'KEYCHAIN_UNAVAILABLE',
        text: msg('credentials.sessionOnly', { profile: profile.name }),
        ...(options.credentialProblem ? { quote: { from: 'system' as const, text: options.credentialProblem } } : {}),
      });
    }
    throw invalidInput(msg('credentials.notStored', { profile: profile.name }));
  };

  /** Stored credentials go only to the origin they were entered for; returns the secret once that holds. */
  const checkedOrigin = async (profile: Profile, stored: StoredCredentials): Promise<string> => {
    const origin = baseUrlOrigin(profile.baseUrl);
    if (stored.origin === undefined && origin !== undefined) {
      // An entry from before the binding: profiles.save has refused every change of origin since, so bind it here.
      await credentialStore.set(profile.id, stored, origin);
      return stored.apiSecret;
    }
    if (origin === undefined || stored.origin !== origin) {
      throw invalidInput(msg('credentials.otherOrigin', { profile: profile.name, from: stored.origin ?? msg('address.other'), to: origin ?? profile.baseUrl }));
    }
    return stored.apiSecret;
  };

  const openConnection = async (profileId: string): Promise<GatedConnection> => {
    const profile = await getProfile(profileId);
    const credentials = await credentialsFor(profile);
    const clientOptions: ServiceClientOptions = { profile, credentials };
    if (options.fetch) clientOptions.fetch = options.fetch;
    if (options.timeoutMs !== undefined) clientOptions.timeoutMs = options.timeoutMs;
    if (options.now) clientOptions.now = options.now;
    const sleep = options.batchSleep;
    if (sleep) clientOptions.sleep = (ms) => sleep(ms);
    return openGatedConnection(clientOptions, { audit, via, operator, appVersion: options.appVersion ?? 'unknown' }, options.connect);
  };

  /** One connection per profile, so tokens are reused; a failed opening is not cached. */
  const connectionFor = (profileId: string): Promise<GatedConnection> => {
    let connection = connections.get(profileId);
    if (!connection) {
      connection = openConnection(profileId);
      connections.set(profileId, connection);
      connection.catch(() => connections.delete(profileId));
    }
    return connection;
  };
  const clientFor = async (profileId: string): Promise<ServiceClient> => (await connectionFor(profileId)).client;

  /** Every page of a profile's users, as few requests as the service allows (100 a page, several at once). */
  const walkUsers = async (profileId: string, walk: WalkOptions = {}) => {
    const client = await clientFor(profileId);
    let pages = 0;
    const users = await listAllUsers((input) => client.listUsers(input), {
      ...(walk.signal ? { signal: walk.signal } : {}),
      ...(walk.pageBudgetMs !== undefined ? { pageRetry: { budgetMs: walk.pageBudgetMs } } : {}),
      onProgress: (progress: ListAllProgress) => {
        pages = progress.page;
        walk.onProgress?.(progress);
      },
    });
    return { users, pages, baseUrl: client.profile.baseUrl };
  };
  // In memory only: never written to the data folder.
  const userIndexes = createUserIndexes({
    walk: walkUsers,
    ...(options.now ? { now: options.now } : {}),
    ...(options.userIndexTtlMs !== undefined ? { ttlMs: options.userIndexTtlMs } : {}),
  });
  // The audit trail as a change feed: whoever erased on this computer (this window, the CLI, a batch), the
  // user leaves the kept lists before the next answer. Read from where the trail ends now, by offset.
  const erasureFeed = createErasureFeed({ source: audit.feed(), ...(options.now ? { now: options.now } : {}) });
  const catchUpWithErasures = async () => {
    const news = await erasureFeed.poll();
    if (news.lostTrack) userIndexes.forgetAll();
    userIndexes.erased(news.erasures);
  };

  // At once, whether or not the outcome reached the trail (an outcome kept in memory after a failed write is not in the file yet).
  const forgetErased = (profileId: string, uid: string) => userIndexes.erased([{ uid, profileId, service: userIndexes.serviceOf(profileId) ?? '' }]);

  const batch = createDeskBatch({
    dataDir,
    ...(stores ? { jobs: stores.batchJobs } : {}),
    getProfile,
    connectionFor,
    walkUsers,
    onRunEnded: (profileId) => userIndexes.forget(profileId),
    ...(options.now ? { now: options.now } : {}),
    ...(options.batchSleep ? { sleep: options.batchSleep } : {}),
    ...(options.batchRetryForMs !== undefined ? { retryForMs: options.batchRetryForMs } : {}),
  });

  // The request register (core/requests/request-store.ts): the local store in the data folder, or the team's, audited in the same trail.
  const registerContext = {
    audit,
    keyStore: options.requestKeyStore ?? (async () => credentialStore),
    operator,
    via: via === 'cli' ? ('cli' as const) : ('app' as const),
    appVersion: options.appVersion ?? 'unknown',
    ...(options.now ? { now: options.now } : {}),
  };
  const requests: RequestStore = stores ? stores.requests(registerContext) : openLocalRequestStore({ dataDir, ...registerContext });

  return {
    dataDir,
    /** Where the trail is, as shown: audit.jsonl's path, or the team database's address. */
    auditWhere: audit.where,
    /** Team mode: which database (and, once reached, the role and desktop); undefined in local mode. */
    team: stores?.team,
    /** The trail a page at a time, filtered where it is kept: by SQL in the team database, by the one rule over the file locally. */
    auditQuery: stores?.auditQuery ?? createFileAuditQuery(audit.where, () => audit.read()),
    /** The request register: requests from receipt to answer, with their legal clock (core/requests/request-store.ts). */
    requests,
    /** Batch erasure: drafts, checks, jobs that survive crashes (core/batch/batch-types.ts). */
    batch,
    profilesPath: profileStore.path,
    listProfiles: profiles.listProfiles,
    saveProfile: (input: SaveProfileInput): Promise<ProfileView> => profiles.saveProfile(input),
    removeProfile: profiles.removeProfile,
    setActiveProfile: profiles.setActiveProfile,
    getProfile,
    /** Profile by exact id, else by name ignoring case (for the CLI's --profile). */
    findProfile: profiles.findProfile,
    ensureSandboxProfile: profiles.ensureSandboxProfile,
    /** Only when the operator asks: moves a corrupt profiles.json aside. */
    startFresh: () => profileStore.startFresh(),

    /** A connection from --base-url/--app and environment credentials: used for this run only, stored nowhere. */
    useTemporaryConnection(connection: TemporaryConnection): Profile {
      const profile = profiles.validateTemporary({ ...connection, id: TEMPORARY_PROFILE_ID });
      temporary = { profile, credentials: connection.credentials };
      forgetProfile(TEMPORARY_PROFILE_ID);
      return profile;
    },

    async testConnection(profileId: string): Promise<ConnectionCheck[]> {
      const client = await clientFor(profileId);
      const checks: ConnectionCheck[] = [];
      // A missing scope concerns that scope only; any other failure (network, keys, server) would
      // repeat at every later step, so the test stops at the first one instead of saying it three times.
      const stopsTheTest = (check: ConnectionCheck) => !check.ok && check.error?.code !== 'INSUFFICIENT_SCOPE';
      for (const scope of ['authentication', 'public'] as const) {
        try {
          const info = await client.checkToken(scope);
          checks.push({ step: `token-${scope}`, ok: true, detail: msg('connection.tokenDetail', { scope, expires: durationText((info.expiresAt - (options.now ?? Date.now)()) / 1000) }) });
        } catch (error) {
          checks.push({ step: `token-${scope}`, ok: false, error: toErrorInfo(error) });
          if (stopsTheTest(checks[checks.length - 1]!)) return checks;
        }
      }
      try {
        const page = await client.listUsers({ page: 1, perPage: 1 });
        const detail = page.total !== undefined ? msg('connection.usersTotal', { count: page.total }) : page.users.length > 0 ? msg('connection.usersListed') : msg('connection.noUsers');
        checks.push({ step: 'list-users', ok: true, detail });
      } catch (error) {
        checks.push({ step: 'list-users', ok: false, error: toErrorInfo(error) });
      }
      return checks;
    },

    async listUsers(profileId: string, input: ListUsersInput = {}): Promise<UserPage> {
      const parsed = listUsersInputSchema.safeParse(input);
      if (!parsed.success) throw invalidInput(msg('desk.badPage'));
      const client = await clientFor(profileId);
      // Taken as the request leaves: an erasure recorded after it may or may not be in the answer (users.erasedSince).
      const readAt = new Date((options.now ?? Date.now)()).toISOString();
      return { ...(await client.listUsers(parsed.data)), readAt };
    },

    /** Which of these uids (a page read at `since`) any process on this computer recorded an erasure of since then. */
    async erasedSince(profileId: string, uids: readonly string[], since: string): Promise<ErasedSinceAnswer> {
      await catchUpWithErasures();
      const service = userIndexes.serviceOf(profileId) ?? serviceKey((await getProfile(profileId)).baseUrl);
      return erasureFeed.erasuresSince(uids, profileId, service, Date.parse(since));
    },

    /** Every page of users, with progress and cancel (core/list-all-users.ts). */
    walkUsers,
    /** Walks every page and keeps the users in memory for searchUsers and lookupUser (core/user-index.ts). */
    async indexUsers(profileId: string, walk: WalkOptions = {}) {
      await catchUpWithErasures();
      // Someone waits for this list (a search, the erasure dialog): a service that does not answer is said so soon.
      const built = await userIndexes.build(profileId, { pageBudgetMs: INDEX_PAGE_BUDGET_MS, ...walk });
      // Erasures written while the pages were read (and not yet seen) leave the new list too.
      await catchUpWithErasures();
      return built;
    },
    /** Searches the profile's user index by uid, name or e-mail; "missing" when there is none (or it is too old). */
    async searchUsers(profileId: string, text: string, limit?: number): Promise<UserSearchAnswer> {
      await catchUpWithErasures();
      return userIndexes.search(profileId, text, limit);
    },
    /**
     * The user with exactly this uid on the kept list, with the list's age; "absent" from an old list proves
     * nothing (read it again). Also says when the audit trail recorded an erasure of this uid since start.
     */
    async lookupUser(profileId: string, uid: string): Promise<UserLookupAnswer> {
      await catchUpWithErasures();
      const answer = userIndexes.lookup(profileId, uid);
      if (answer.state === 'found') return answer;
      const service = userIndexes.serviceOf(profileId) ?? serviceKey((await getProfile(profileId)).baseUrl);
      const erasure = erasureFeed.erasureOf(uid, profileId, service);
      return erasure ? { ...answer, erasure } : answer;
    },
    /** Drops the profile's user index; true when there was one. */
    forgetUserIndex: (profileId: string): boolean => userIndexes.forget(profileId),

    /** Anonymise or delete through the gate, which validates, confirms and audits. */
    async erase({ profileId, ...order }: ErasureOrder & { profileId: string }): Promise<ErasureResult> {
      try {
        const result = await (await connectionFor(profileId)).gate.erase(order);
        forgetErased(profileId, order.uid);
        return result;
      } catch (error) {
        // The service does not know the uid, or may have erased it: nor should the search.
        if (error instanceof PrivacyDeskError && (error.code === 'NOT_FOUND' || error.outcome === 'unknown')) forgetErased(profileId, order.uid);
        throw error;
      }
    },

    /** The preview; for a live service its signature is withheld (core/logout-exposure.ts). */
    async buildLogoutToken(profileId: string, uid: string, logoutOptions?: LogoutOptions): Promise<BuiltLogoutToken> {
      const profile = await getProfile(profileId);
      const checked = checkLogoutOptions(profile, logoutOptions);
      return exposedToken(profile, await (await clientFor(profileId)).buildLogoutToken(uid, checked));
    },

    /** Options are checked before the gate (nothing is audited for a refused request); the result's token is exposed as in the preview. */
    async sendLogout(profileId: string, uid: string, logoutOptions?: LogoutOptions, reference?: string): Promise<LogoutResult> {
      const profile = await getProfile(profileId);
      const checked = checkLogoutOptions(profile, logoutOptions);
      return exposedToken(profile, await (await connectionFor(profileId)).gate.logout({ uid, options: checked, reference }));
    },

    /** The logout conformance run through the gate (each send audited); a live profile needs the uid typed again (confirmUid). */
    async runLogoutConformance(profileId: string, order: ConformanceOrder): Promise<ConformanceRun> {
      return (await connectionFor(profileId)).gate.logoutConformance(order);
    },

    async verifyLogoutToken(profileId: string, token: string): Promise<TokenVerification> {
      return (await clientFor(profileId)).verifyLogoutToken(token);
    },

    async sandboxUserState(profileId: string, uid: string): Promise<SandboxUserState | null> {
      assertValidUid(uid);
      const profile = await getProfile(profileId);
      if (!isLocalBaseUrl(profile.baseUrl)) return null; // live data is never probed through sandbox routes
      return fetchSandboxUserState(options.fetch ?? fetch, profile.baseUrl, uid, options.timeoutMs ?? 10_000, options.now);
    },

    /** Opens a session for the uid on a loopback sandbox, for the logout tester; a live profile is refused before anything is sent. */
    async simulateSandboxLogin(profileId: string, uid: string): Promise<{ sessionCount: number }> {
      assertValidUid(uid);
      const profile = await getProfile(profileId);
      if (!isLocalBaseUrl(profile.baseUrl)) {
        throw invalidInput(msg('desk.simulateLive', { profile: profile.name }));
      }
      return simulateSandboxLogin(options.fetch ?? fetch, profile.baseUrl, uid, options.timeoutMs ?? 10_000, options.now);
    },

    auditEntries: async (limit = 200): Promise<AuditEntry[]> => (await audit.list(limit)).map(upgradeLegacyEntry),
    /** The whole trail, never failing on a bad line; a torn last line is moved aside (core/audit-reader.ts says more). */
    readAudit: async (): Promise<AuditReading> => {
      const reading = await audit.read();
      // Its verdict covers the request register the trail vouches for too, as verifyAudit's does: the console's badge
      // says "verified" from this reading before anyone presses Verify again.
      const register = await requests.check(reading.entries);
      return register.ok && register.events === 0 ? reading : { ...reading, verdict: { ...reading.verdict, register } };
    },
    /** `anchor`: a head hash written down earlier (a ticket); the chain must still hold that entry. */
    verifyAudit: async (anchor?: string): Promise<ChainVerdict> => {
      const verdict = await audit.verify(anchor);
      // The request register is checked against the trail too, once it holds anything (an untouched verdict otherwise).
      const register = await requests.check();
      return register.ok && register.events === 0 ? verdict : { ...verdict, register };
    },
    /** An open finding of the trail's anchor acknowledged with the operator's typed reason, as a chained entry; verify's verdict after it. */
    acknowledgeAuditFinding: (request: AcknowledgeRequest): Promise<ChainVerdict> =>
      acknowledgeFinding(audit, request, { operator, via, appVersion: options.appVersion ?? 'unknown', ...(options.now ? { now: options.now } : {}) }),
    /** A PDF receipt for one act or every act of a reference, from the trail as it stands (core/receipt.ts). */
    async receipt(subject: ReceiptSubject, { locale }: { locale: ReceiptLocale }): Promise<Receipt> {
      const generatedAt = isoWithOffset(new Date((options.now ?? Date.now)()));
      return createReceipt(receiptSource(await audit.read()), subject, { locale, generatedAt, generatorVersion: options.appVersion ?? 'unknown' });
    },
    async exportAudit({ format, filter }: { format: AuditExportFormat; filter?: AuditFilter }): Promise<AuditExport> {
      if (format !== 'csv' && format !== 'json') throw invalidInput(msg('desk.exportFormat', { format: String(format) }));
      return buildAuditExport(await audit.read(), { format, ...(filter ? { filter } : {}), exportedAt: isoWithOffset(new Date((options.now ?? Date.now)())) });
    },
    /** Writes outcome entries kept after a failed write (the app runtime calls it on a timer); returns how many still wait. */
    flushPending: (): Promise<number> => audit.flushPending(),
    /** Tells the audit anchor now that the last write landed (before the app closes). */
    settleAudit: (): Promise<void> => audit.settle(),
    pendingAuditCount: (): number => audit.pendingCount,
    /** Those entries, oldest first (a command that ends says which outcomes the trail lacks). */
    pendingAuditEntries: (): readonly AuditEntry[] => audit.pendingEntries(),

    keychainStatus(): { available: boolean; problem?: string } {
      if (credentialStore.kind === 'keychain') return { available: true };
      return { available: false, problem: options.credentialProblem ?? 'The OS keychain is not in use: credentials are kept for this session only.' };
    },
  };
}

/** The OS user name, for the audit trail; "unknown" where the OS will not say (no passwd entry in a container). */
function currentOsUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
