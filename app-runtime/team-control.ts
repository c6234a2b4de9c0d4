import { userInfo } from 'node:os';
import type { CredentialStore } from '../core/credential-store';
import { connectTeam, disconnectTeam, importLocalIntoTeam, teamStatus, type TeamAdminOptions } from '../core/team/team-admin';
import { previewLocalImport } from '../core/team/team-import-preview';
import type { TeamControl } from '../handlers/team-handlers';

export interface TeamControlOptions {
  dataDir: string;
  keychain: CredentialStore;
  env: NodeJS.ProcessEnv;
  /** Written into the entries the register's import may add. */
  appVersion?: string;
  /** Builds the Desk again on the stores the setting now names (the runtime's: it stops what runs on the old one first). */
  switchStores(): Promise<void>;
}

/**
 * Team mode from the console's settings: the same core as `privacy-desk team …` (core/team/team-admin.ts); once the
 * setting has changed, the runtime's Desk is built again on the stores it names, so every screen works on them.
 */
export function createTeamControl(options: TeamControlOptions): TeamControl {
  const admin = (): TeamAdminOptions => ({ dataDir: options.dataDir, keychain: options.keychain, env: options.env, operator: osUser() });
  return {
    status: () => teamStatus(admin()),
    async connect(databaseUrl, password) {
      const status = await connectTeam(admin(), databaseUrl, password);
      await options.switchStores();
      return status;
    },
    async disconnect() {
      const where = await disconnectTeam(admin());
      await options.switchStores();
      return { where };
    },
    importPreview: () => previewLocalImport(options.dataDir),
    // The Desk already works on the team stores: the import adds to them through its own connection, nothing to switch.
    importLocal: () => importLocalIntoTeam({ ...admin(), via: 'app', ...(options.appVersion ? { appVersion: options.appVersion } : {}) }),
  };
}

function osUser(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
