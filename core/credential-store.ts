import type { Credentials } from '../shared/profile';

/**
 * Where API keys and secrets live. The keychain backend is the only one that
 * persists anything; the session backend keeps them in memory until the
 * process ends. There is deliberately no file backend.
 */
export interface CredentialStore {
  kind: 'keychain' | 'session';
  get(profileId: string): Promise<Credentials | null>;
  set(profileId: string, credentials: Credentials): Promise<void>;
  delete(profileId: string): Promise<void>;
}

export function createSessionCredentialStore(): CredentialStore {
  const entries = new Map<string, Credentials>();
  return {
    kind: 'session',
    async get(profileId) {
      const found = entries.get(profileId);
      return found ? { ...found } : null;
    },
    async set(profileId, credentials) {
      entries.set(profileId, { apiKey: credentials.apiKey, apiSecret: credentials.apiSecret });
    },
    async delete(profileId) {
      entries.delete(profileId);
    },
  };
}
