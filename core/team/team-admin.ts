import { hostname } from 'node:os';
import { PrivacyDeskError, invalidInput, toErrorInfo } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { TeamStatus } from '../../shared/team-mode';
import type { CredentialStore } from '../credential-store';
import { loadTeamSide } from './team-stores';
import { DATABASE_PASSWORD_ENV, forgetTeamPassword, keepTeamPassword, readTeamSetting, removeTeamSetting, teamPasswordAccount, writeTeamSetting } from './team-settings';
import { parseTeamDatabaseUrl } from './team-url';

/**
 * Team mode switched on and off for a data folder (the CLI's `team …` and the console's settings share these):
 * connect tests the database and brings its schema up to date before anything is saved; the password goes to the
 * keychain only; disconnect returns the folder to its local files and leaves the team's data in the database.
 */
export interface TeamAdminOptions {
  dataDir: string;
  keychain: CredentialStore;
  env: NodeJS.ProcessEnv;
  operator: string;
  /** Who imports (`team import`): written into the entries the register's import may add. */
  via?: 'cli' | 'app';
  appVersion?: string;
  now?: () => number;
}

export async function connectTeam(options: TeamAdminOptions, databaseUrl: string, password: string): Promise<TeamStatus> {
  // The address's rules (no password in it, TLS away from this computer) are held before any connection is tried.
  const address = parseTeamDatabaseUrl(databaseUrl);
  const existing = await readTeamSetting(options.dataDir);
  if (existing && existing.database.display !== address.display) {
    throw invalidInput(msg('teamMode.otherDatabase', { where: existing.database.display, other: address.display }));
  }
  if (!password) throw invalidInput(msg('teamMode.passwordMissing', { where: address.display }));
  const side = await loadTeamSide();
  const probe = await side.probeTeamDatabase(address, password);
  await keepTeamPassword(options.dataDir, options.keychain, password);
  await writeTeamSetting(options.dataDir, {
    format: 1,
    address: address.display,
    connectedAt: new Date((options.now ?? Date.now)()).toISOString(),
    connectedBy: { operator: options.operator, desktop: safeHostname() },
    ...(existing?.importedAt ? { importedAt: existing.importedAt } : {}),
  });
  return { ...(await settingStatus(options)), reachable: true, role: probe.role, desktop: probe.desktop, schema: probe.schema, counts: probe.counts };
}

/** Where the folder works, and in team mode whether the database answers now (with why not), its role and counts. */
export async function teamStatus(options: TeamAdminOptions): Promise<TeamStatus> {
  const status = await settingStatus(options);
  if (status.mode === 'local') return status;
  const setting = await readTeamSetting(options.dataDir);
  if (!setting) return { mode: 'local' };
  const password = await passwordOf(options);
  if (password === null) {
    return { ...status, reachable: false, problem: toErrorInfo(new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('teamMode.noPassword', { where: setting.database.display }) })) };
  }
  try {
    const probe = await (await loadTeamSide()).probeTeamDatabase(setting.database, password);
    return { ...status, reachable: true, role: probe.role, desktop: probe.desktop, schema: probe.schema, counts: probe.counts };
  } catch (error) {
    return { ...status, reachable: false, problem: toErrorInfo(error) };
  }
}

/**
 * Back to the local files: the setting and the keychain's password removed (a damaged setting too). Returns the
 * address it worked on (null when the setting could not be read); refused when the folder was not in team mode.
 */
export async function disconnectTeam(options: Pick<TeamAdminOptions, 'dataDir' | 'keychain'>): Promise<string | null> {
  const setting = await readTeamSetting(options.dataDir).catch(() => null);
  await forgetTeamPassword(options.dataDir, options.keychain);
  if (!(await removeTeamSetting(options.dataDir))) throw invalidInput(msg('teamMode.notConnected'));
  return setting?.database.display ?? null;
}

/** `team import`: once per data folder, into the database it is connected to (team.json records when). */
export async function importLocalIntoTeam(options: TeamAdminOptions) {
  const setting = await readTeamSetting(options.dataDir);
  if (!setting) throw invalidInput(msg('teamMode.notConnected'));
  const where = setting.database.display;
  if (setting.importedAt) throw invalidInput(msg('teamMode.alreadyImported', { where, at: setting.importedAt }));
  const password = await passwordOf(options);
  if (password === null) throw new PrivacyDeskError({ code: 'TEAM_STORE_UNAVAILABLE', text: msg('teamMode.noPassword', { where }) });
  const imported = await (await loadTeamSide()).importLocalData(setting.database, password, {
    dataDir: options.dataDir,
    keyStore: async () => options.keychain,
    operator: options.operator,
    via: options.via ?? 'cli',
    appVersion: options.appVersion ?? 'unknown',
  });
  const { database: _address, ...kept } = setting;
  await writeTeamSetting(options.dataDir, { ...kept, importedAt: new Date((options.now ?? Date.now)()).toISOString() });
  return imported;
}

/** The setting as it stands, without reaching the database. */
async function settingStatus(options: TeamAdminOptions): Promise<TeamStatus> {
  const setting = await readTeamSetting(options.dataDir);
  if (!setting) return { mode: 'local' };
  const kept = await options.keychain.getRecord(teamPasswordAccount(options.dataDir));
  const password = kept ? (options.keychain.kind === 'keychain' ? 'keychain' : 'session') : options.env[DATABASE_PASSWORD_ENV] ? 'environment' : 'missing';
  return {
    mode: 'team',
    where: setting.database.display,
    connectedAt: setting.connectedAt,
    connectedBy: setting.connectedBy,
    ...(setting.importedAt ? { importedAt: setting.importedAt } : {}),
    password,
  };
}

async function passwordOf(options: TeamAdminOptions): Promise<string | null> {
  const kept = await options.keychain.getRecord(teamPasswordAccount(options.dataDir));
  return kept || options.env[DATABASE_PASSWORD_ENV] || null;
}

function safeHostname(): string {
  try {
    return hostname() || 'unknown';
  } catch {
    return 'unknown';
  }
}
