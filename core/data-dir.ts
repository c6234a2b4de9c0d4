import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, win32 } from 'node:path';

export const APP_FOLDER_NAME = 'privacy-desk';

/**
 * Where Privacy Desk keeps profiles.json and audit.jsonl. PRIVACY_DESK_DATA_DIR
 * wins (tests, portable use); otherwise the same per-user folder Electron's
 * app.getPath('userData') gives for the package name, so the CLI and the app
 * share one set of profiles.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env.PRIVACY_DESK_DATA_DIR?.trim();
  if (override) return override;
  const home = env.HOME?.trim() || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  if (platform === 'win32') {
    const appData = env.APPDATA?.trim() || win32.join(env.USERPROFILE?.trim() || home, 'AppData', 'Roaming');
    return win32.join(appData, APP_FOLDER_NAME);
  }
  const configHome = env.XDG_CONFIG_HOME?.trim() || join(home, '.config');
  return join(configHome, APP_FOLDER_NAME);
}

/** Creates the folder (owner-only: it holds the audit trail) when missing and returns it. */
export function ensureDataDir(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
