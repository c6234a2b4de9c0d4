import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { AuditQuery } from '../../shared/audit-query';
import type { AuditStore } from '../audit-store';
import type { BatchJobStore } from '../batch/batch-job-store';
import type { CredentialStore } from '../credential-store';
import type { RequestStore } from '../requests/request-store';
import { lazyAsyncMethods, lazyAuditStore, lazyBatchJobs, onFirstUse } from './lazy-stores';
import type { OpenedTeamStores } from './team-open';
import { readTeamSetting, teamPassword } from './team-settings';

/** What the register needs besides its store (the same for the local and the team register). */
export interface RequestStoreContext {
  audit: AuditStore;
  keyStore: () => Promise<CredentialStore>;
  operator: string;
  via: 'cli' | 'app';
  appVersion: string;
  now?: () => number;
}

/**
 * The stores a Desk works on instead of the data folder's files (core/desk.ts `stores`): in team mode, the team
 * database's audit trail, request register and batch jobs. Absent: the local files, as always.
 */
export interface DeskStores {
  audit: AuditStore;
  requests(context: RequestStoreContext): RequestStore;
  batchJobs: BatchJobStore;
  /** The trail a page at a time, filtered by the database (core/team/pg-audit-query.ts); absent: read from `audit` whole. */
  auditQuery?: AuditQuery;
  /** Shown to users: which database, and once it has been reached, with which role from which desktop. */
  team: TeamConnection;
}

export interface TeamConnection {
  where: string;
  /** The database role and this desktop's name, once the database has been reached; undefined before. */
  reached(): { role: string; desktop: string } | undefined;
  close(): Promise<void>;
}

export interface DeskStoresOptions {
  dataDir: string;
  /** The keychain that holds the database password (opened only when the database is first needed). */
  keychain: () => Promise<CredentialStore>;
  env: NodeJS.ProcessEnv;
  /** Who runs batch jobs, as their leases name them (default: the OS user). */
  operator?: string;
  now?: () => number;
}

/** The side of team mode that brings pg (the driver, the team stores): loaded only here, so local mode's start-up does not pay for it. */
export const loadTeamSide = () => import('./team-open');

/** Team stores opened by this process and not closed yet: a CLI command closes them as it ends (closeTeamStores). */
const openConnections = new Set<TeamConnection>();

/**
 * The stores of a data folder: undefined in local mode (the Desk keeps its files: no cost, pg never loaded), else the
 * team database's, opened on first use. A damaged team setting throws (working locally would fork the team's trail).
 */
export async function deskStoresFor(options: DeskStoresOptions): Promise<DeskStores | undefined> {
  const setting = await readTeamSetting(options.dataDir);
  if (!setting) return undefined;
  const where = setting.database.display;
  const opened = onFirstUse(async (): Promise<OpenedTeamStores> => {
    const password = await teamPassword(options.dataDir, await options.keychain(), options.env);
    if (password === null) throw new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('teamMode.noPassword', { where }) });
    const { openTeamStores } = await loadTeamSide();
    return openTeamStores(setting.database, password, { ...(options.now ? { now: options.now } : {}), ...(options.operator ? { operator: options.operator } : {}) });
  });
  let closed = false;
  const team: TeamConnection = {
    where,
    reached() {
      const stores = opened.now();
      return stores ? { role: stores.db.role, desktop: stores.db.desktop } : undefined;
    },
    async close() {
      openConnections.delete(team);
      if (closed) return;
      closed = true;
      const stores = opened.now();
      if (stores) await stores.close();
    },
  };
  openConnections.add(team);
  const audit = lazyAuditStore(where, async () => (await opened.get()).audit, () => opened.now()?.audit);
  return {
    audit,
    requests(context) {
      const register = onFirstUse(async () => (await opened.get()).requests(context));
      return lazyAsyncMethods<RequestStore>(register.get);
    },
    batchJobs: lazyBatchJobs(where, async () => (await opened.get()).batchJobs, () => opened.now()?.batchJobs),
    auditQuery: {
      kind: 'team',
      where,
      // Loaded with the team side only (it brings pg): core/team/team-open.ts.
      queryPage: async (input) => (await opened.get()).auditQuery.queryPage(input),
    },
    team,
  };
}

/** Closes every team database this process opened (the CLI, once its command has ended: the pool would keep it alive). */
export async function closeTeamStores(): Promise<void> {
  await Promise.all([...openConnections].map((connection) => connection.close().catch(() => undefined)));
}
