import { realpathSync } from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { CredentialStore } from '../credential-store';
import { writeAtomically } from '../profile-store';
import { parseTeamDatabaseUrl, type TeamDatabaseAddress } from './team-url';

/**
 * Team mode is a setting of the data folder: team.json names the team database (its address as shown, never a
 * password), when and by whom it was connected, and when the local data was imported. Absent: local mode, today's
 * behaviour. The password lives in the OS keychain under an account of the data folder (or, where no keychain
 * works, in PRIVACY_DESK_DATABASE_PASSWORD for each command); never in a file.
 */
export const TEAM_SETTING_FILE = 'team.json';
export const DATABASE_PASSWORD_ENV = 'PRIVACY_DESK_DATABASE_PASSWORD';

const teamSettingSchema = z.object({
  format: z.literal(1),
  /** postgres://USER@HOST:PORT/DB as parseTeamDatabaseUrl displays it (read again through it: the same rules hold). */
  address: z.string().min(1).max(1000),
  connectedAt: z.string(),
  connectedBy: z.object({ operator: z.string(), desktop: z.string() }),
  /** Set once `team import` has moved this folder's trail, jobs and register into the database. */
  importedAt: z.string().optional(),
});

export type TeamSetting = z.infer<typeof teamSettingSchema>;

export const teamSettingPath = (dataDir: string): string => join(dataDir, TEAM_SETTING_FILE);

/** The setting, or null in local mode. A file that cannot be read is an error (falling back to local would fork the trail). */
export async function readTeamSetting(dataDir: string): Promise<(TeamSetting & { database: TeamDatabaseAddress }) | null> {
  const path = teamSettingPath(dataDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw damaged(path, (error as NodeJS.ErrnoException).code ?? 'unreadable');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw damaged(path, 'not JSON');
  }
  const parsed = teamSettingSchema.safeParse(value);
  if (!parsed.success) throw damaged(path, parsed.error.issues.map((issue) => `${issue.path.join('.') || 'file'}: ${issue.message}`).join('; ').slice(0, 200));
  let database: TeamDatabaseAddress;
  try {
    database = parseTeamDatabaseUrl(parsed.data.address);
  } catch {
    throw damaged(path, 'the address does not follow the rules');
  }
  return { ...parsed.data, database };
}

/** Written whole (temporary file, fsync, rename), owner-only. */
export async function writeTeamSetting(dataDir: string, setting: TeamSetting): Promise<void> {
  const checked = teamSettingSchema.parse(setting);
  await writeAtomically(teamSettingPath(dataDir), `${JSON.stringify(checked, null, 2)}\n`);
}

export async function removeTeamSetting(dataDir: string): Promise<boolean> {
  try {
    await unlink(teamSettingPath(dataDir));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

function damaged(path: string, problem: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('teamMode.settingDamaged', { path, problem }) });
}

/** The keychain account of a data folder's database password (one per folder, as the audit anchor and the register key). */
export function teamPasswordAccount(dataDir: string): string {
  let path = resolve(dataDir);
  try {
    path = realpathSync(path);
  } catch {
    // A folder not created yet keeps its resolved path.
  }
  return `team-database:${path}`;
}

/** The password kept for this folder, else the environment's; null when neither has one. */
export async function teamPassword(dataDir: string, keychain: CredentialStore, env: NodeJS.ProcessEnv): Promise<string | null> {
  const kept = await keychain.getRecord(teamPasswordAccount(dataDir));
  if (kept) return kept;
  const fromEnv = env[DATABASE_PASSWORD_ENV];
  return fromEnv ? fromEnv : null;
}

export const keepTeamPassword = (dataDir: string, keychain: CredentialStore, password: string): Promise<void> => keychain.setRecord(teamPasswordAccount(dataDir), password);
export const forgetTeamPassword = (dataDir: string, keychain: CredentialStore): Promise<void> => keychain.deleteRecord(teamPasswordAccount(dataDir));
