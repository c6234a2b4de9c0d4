import { openAuditLog } from '../audit-log';
import type { AuditStore } from '../audit-store';
import { isPrivacyDeskError } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import type { BatchJobStore } from '../batch/batch-job-store';
import type { RequestStore } from '../requests/request-store';
import type { AuditQuery } from '../../shared/audit-query';
import { importLocalAuditLog } from './pg-audit-import';
import { anchorInCredentialStore } from '../audit-anchor';
import { importLocalBatchJobs } from './pg-batch-import';
import { checkRegisterImportable, importLocalRegister } from './pg-register-import';
import type { CredentialStore } from '../credential-store';
import { createPgAuditQuery } from './pg-audit-query';
import { openPgAuditLog } from './pg-audit-log';
import { openPgBatchJobs } from './pg-batch-jobs';
import { openPgRequestStore } from './pg-register-store';
import { openTeamDatabase, teamStoreError, type TeamDatabase } from './team-database';
import type { RequestStoreContext } from './team-stores';
import type { TeamDatabaseAddress } from './team-url';

/** The team database and its stores, once reached (loaded lazily by core/team/team-stores.ts: it brings pg). */
export interface OpenedTeamStores {
  db: TeamDatabase;
  audit: AuditStore;
  batchJobs: BatchJobStore;
  /** The trail a page at a time, filtered by PostgreSQL (the console's audit view in team mode). */
  auditQuery: AuditQuery;
  requests(context: RequestStoreContext): RequestStore;
  close(): Promise<void>;
}

export async function openTeamStores(address: TeamDatabaseAddress, password: string, options: { now?: () => number; operator?: string }): Promise<OpenedTeamStores> {
  const db = await openTeamDatabase(address, { password });
  const audit = openPgAuditLog(db, options.now ? { now: options.now } : {});
  return {
    db,
    audit,
    batchJobs: openPgBatchJobs(db, { ...(options.now ? { now: options.now } : {}), ...(options.operator ? { operator: options.operator } : {}) }),
    auditQuery: createPgAuditQuery(db),
    requests: (context) => openPgRequestStore({ ...context, db, audit }),
    async close() {
      await audit.settle().catch(() => undefined);
      await db.close();
    },
  };
}

/** What `team status` and `team connect` learn of the database: reached with this role, schema step, what it holds. */
export interface TeamProbe {
  role: string;
  desktop: string;
  schema: { last: string; steps: number };
  counts: { auditEntries: number; requests: number; jobs: number };
}

/** Opens the database (which brings its schema up to date), reads who we are and what it holds, and closes it. */
export async function probeTeamDatabase(address: TeamDatabaseAddress, password: string): Promise<TeamProbe> {
  const db = await openTeamDatabase(address, { password, maxConnections: 1 });
  try {
    const count = async (sql: string): Promise<number> => Number((await db.pool.query<{ n: string | null }>(sql)).rows[0]?.n ?? 0);
    const steps = (await db.pool.query<{ name: string }>('SELECT name FROM privacy_desk_migrations ORDER BY name')).rows.map((row) => row.name);
    return {
      role: db.role,
      desktop: db.desktop,
      schema: { last: steps[steps.length - 1] ?? '', steps: steps.length },
      counts: {
        // The chain's head holds the last sequence number: no count over a million rows.
        auditEntries: await count('SELECT seq AS n FROM audit_head'),
        requests: await count('SELECT count(DISTINCT request_id) AS n FROM register_events'),
        jobs: await count('SELECT count(*) AS n FROM batch_jobs'),
      },
    };
  } catch (error) {
    throw teamStoreError(db.where, error, 'connect');
  } finally {
    await db.close().catch(() => undefined);
  }
}

/** What `team import` moved into the team database. */
export interface TeamImport {
  where: string;
  auditEntries: number;
  firstSeq: number | null;
  localHeadHash: string | null;
  jobs: number;
  /** The trail was imported by an earlier run cut short: what says so (the rest was imported by this one). */
  trailAlreadyThere?: MessageText;
  /** Jobs left out, and why (run by a process now, damaged files): nothing of them was written. */
  jobsNotImported: Array<{ jobId: string; why: string; /** The same in words (the console says it in its language). */ text?: MessageText }>;
  requests: number;
  registerEvents: number;
  /** Requesters this computer's keychain could not open: they stay unreadable in the team register. */
  requestersUnreadable: number;
}

export interface LocalImportOptions {
  dataDir: string;
  /** The keychain holding the folder's register key (its requesters are re-wrapped with the team's key). */
  keyStore: () => Promise<CredentialStore>;
  operator: string;
  via: 'cli' | 'app';
  appVersion: string;
}

/**
 * The data folder's local trail, jobs and register moved into the team database. Whether the register can go is asked
 * first (a team register already started refuses it, and the trail's 'request' entries must not land without their
 * events); then the trail, so the register's events find the entries that vouch for them; then jobs and register.
 * Each store's import refuses a second one (the trail by its recorded head, the register when not empty).
 */
export async function importLocalData(address: TeamDatabaseAddress, password: string, options: LocalImportOptions): Promise<TeamImport> {
  const { dataDir } = options;
  const db = await openTeamDatabase(address, { password, maxConnections: 2 });
  try {
    await checkRegisterImportable(db, dataDir);
    // Read through the folder's own log, so a torn last line left by a crash is set aside first, as it always is.
    const local = openAuditLog(dataDir, { anchor: anchorInCredentialStore(await options.keyStore(), dataDir) });
    const trail = await importLocalAuditLog(db, local).catch((error: unknown) => {
      // An import cut short after its trail (the database lost before the jobs or the register): the trail is there
      // already, whole (one transaction), so this run goes on with the rest instead of stopping for good.
      if (isPrivacyDeskError(error) && error.text?.id === 'team.import.again') return { imported: 0, firstSeq: null, localHeadHash: null, alreadyThere: error.text };
      throw error;
    });
    const jobs = await importLocalBatchJobs(dataDir, db, { operator: options.operator });
    const register = await importLocalRegister({ dataDir, keyStore: options.keyStore, db, audit: openPgAuditLog(db), operator: options.operator, via: options.via, appVersion: options.appVersion });
    return {
      where: db.where,
      auditEntries: trail.imported,
      ...('alreadyThere' in trail ? { trailAlreadyThere: trail.alreadyThere } : {}),
      firstSeq: trail.firstSeq,
      localHeadHash: trail.localHeadHash,
      jobs: jobs.imported.length,
      jobsNotImported: jobs.notImported.map(({ jobId, error }) => ({ jobId, why: error.message, ...(error.text ? { text: error.text } : {}) })),
      requests: register.requests,
      registerEvents: register.events,
      requestersUnreadable: register.keysUnreadable,
    };
  } finally {
    await db.close().catch(() => undefined);
  }
}
