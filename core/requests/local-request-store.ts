import type { AuditVia } from '../../shared/audit';
import { readWhole } from '../audit-file';
import { parseAuditText } from '../audit-reader';
import type { CredentialStore } from '../credential-store';
import type { DataLockOptions } from '../data-lock';
import { openRegisterKeyring } from './register-crypto';
import { openRegisterFile } from './register-file';
import { readRegisterSettings, saveRegisterSettings } from './register-settings';
import { openRequestStore, type RegisterAudit } from './request-store-core';
import type { RequestStore } from './request-store';

export interface LocalRequestStoreOptions {
  dataDir: string;
  /** The data folder's audit trail: every change is also an entry there (its file is read whole by check()). */
  audit: RegisterAudit & { readonly path?: string };
  /** Where the register's key is kept (the keychain, or this session's memory), opened on first need. */
  keyStore: () => Promise<CredentialStore>;
  operator: string;
  via: Extract<AuditVia, 'app' | 'cli'>;
  appVersion: string;
  now?: () => number;
  lockOptions?: DataLockOptions;
}

/** The register in the data folder: requests.jsonl (events), requests-keys.json (sealed data keys), requests-settings.json. */
export function openLocalRequestStore(options: LocalRequestStoreOptions): RequestStore {
  const { dataDir, audit } = options;
  const auditPath = audit.path;
  return openRequestStore({
    events: openRegisterFile(dataDir, options.lockOptions),
    keyring: openRegisterKeyring(dataDir, options.keyStore),
    settings: () => readRegisterSettings(dataDir),
    saveSettings: (changes) => saveRegisterSettings(dataDir, changes, options.lockOptions),
    audit,
    // The file as it stands, parsed (a torn last line left out, not moved aside as read() would).
    trailEntries: async () => (auditPath ? parseAuditText(await readWhole(auditPath)).entries : (await audit.read()).entries),
    operator: options.operator,
    via: options.via,
    appVersion: options.appVersion,
    ...(options.now ? { now: options.now } : {}),
  });
}
