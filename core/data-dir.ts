import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
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

/**
 * Creates the folder when missing and returns it. On POSIX it is owner-only
 * (0700, its files 0600: it holds the audit trail and the profiles) even when it
 * already existed with looser rights, for example from an older version or a copy.
 */
export function ensureDataDir(dir: string, platform: NodeJS.Platform = process.platform): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (platform !== 'win32') tightenPermissions(dir);
  return dir;
}

/** Quietly narrows rights we own; a file we may not chmod (another owner's) is left as it is. */
function tightenPermissions(dir: string): void {
  narrow(dir, 0o700);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      continue; // gone meanwhile
    }
    // Symbolic links are not followed: chmod would change whatever they point at.
    if (stats.isFile()) narrow(path, 0o600);
    else if (stats.isDirectory()) narrow(path, 0o700);
  }
}

function narrow(path: string, mode: number): void {
  try {
    if ((lstatSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
  } catch {
    // Not ours to change (or gone): the folder still works; nothing to tell the operator here.
  }
}
