import type { Credentials } from '../shared/profile';

/**
 * Where API keys and secrets live. The keychain backend is the only one that
 * persists anything; the session backend keeps them in memory until the
 * process ends. There is deliberately no file backend.
 */
export interface CredentialStore {
  kind: 'keychain' | 'session';
  get(profileId: string): Promise<StoredCredentials | null>;
  /** Stores the key and secret bound to the origin they were entered for (shared/credential-origin.ts). */
  set(profileId: string, credentials: Credentials, origin: string): Promise<void>;
  delete(profileId: string): Promise<void>;
  /**
   * A small record that is no credential, kept in the same place under an account of its own (the audit trail's
   * anchor: core/audit-anchor.ts), so that rewriting a file in the data folder cannot reach it. Null when absent.
   */
  getRecord(account: string): Promise<string | null>;
  setRecord(account: string, value: string): Promise<void>;
  /** Removes such a record (the team database's password on `team disconnect`); nothing to do when absent. */
  deleteRecord(account: string): Promise<void>;
}

/** What a store gives back: the key, the secret and the origin they may be sent to (absent in entries written before the binding existed). */
export interface StoredCredentials extends Credentials {
  origin?: string;
}

export function createSessionCredentialStore(): CredentialStore {
  const entries = new Map<string, StoredCredentials>();
  const records = new Map<string, string>();
  return {
    kind: 'session',
    async get(profileId) {
      const found = entries.get(profileId);
      return found ? { ...found } : null;
    },
    async set(profileId, credentials, origin) {
      entries.set(profileId, { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, origin });
    },
    async delete(profileId) {
      entries.delete(profileId);
    },
    async getRecord(account) {
      return records.get(account) ?? null;
    },
    async setRecord(account, value) {
      records.set(account, value);
    },
    async deleteRecord(account) {
      records.delete(account);
    },
  };
}
