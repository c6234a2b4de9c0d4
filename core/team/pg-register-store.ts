import type { CredentialStore } from '../credential-store';
import { openKeyring } from '../requests/register-keyring';
import { openRequestStore, type RegisterAudit } from '../requests/request-store-core';
import type { RequestStore } from '../requests/request-store';
import { createPgAuditQuery } from './pg-audit-query';
import { openPgRegisterEvents } from './pg-register-events';
import { pgKeyStorage } from './pg-register-keys';
import { pgRegisterSettings } from './pg-register-settings';
import { requestEntriesOf } from './pg-register-trail';
import type { TeamDatabase } from './team-database';

export interface PgRequestStoreOptions {
  db: TeamDatabase;
  /** The team's audit trail (the AuditStore of team mode): every change is an entry there (check() reads its 'request' entries from the database). */
  audit: RegisterAudit;
  /**
   * Not used by the team register: its key is in the team database, so every desktop reads the requesters
   * (core/team/pg-register-keys.ts). Accepted so the two stores are opened alike.
   */
  keyStore?: () => Promise<CredentialStore>;
  operator: string;
  via: 'cli' | 'app';
  appVersion: string;
  now?: () => number;
}

/** The request register of team mode: the same store as the data folder's, its events, keys and settings in PostgreSQL. */
export function openPgRequestStore(options: PgRequestStoreOptions): RequestStore {
  const { db, audit } = options;
  const settings = pgRegisterSettings(db, { operator: options.operator });
  return openRequestStore({
    events: openPgRegisterEvents(db, { operator: options.operator }),
    keyring: openKeyring(pgKeyStorage(db)),
    settings: settings.read,
    saveSettings: settings.save,
    audit,
    // Only the trail's 'request' entries, paged from the database: checking the register never reads the whole trail.
    trailEntries: () => requestEntriesOf(createPgAuditQuery(db)),
    operator: options.operator,
    via: options.via,
    appVersion: options.appVersion,
    ...(options.now ? { now: options.now } : {}),
  });
}
