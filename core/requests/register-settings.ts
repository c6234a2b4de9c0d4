import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PrivacyDeskError, invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { DEFAULT_PURGE_AFTER_YEARS, registerSettingsSchema, type RegisterSettings } from '../../shared/requests';
import { withDataLock, type DataLockOptions } from '../data-lock';
import { writeFileAtomic } from './atomic-file';
import { isSupportedCountry, isValidTimeZone, loadHolidayCalendar, systemTimeZone } from './clock';
import { REQUESTS_LOCK } from './register-file';

/**
 * The register's settings, in requests-settings.json in the data folder (written whole: a temporary file renamed over
 * the old one). Absent: the system's time zone, France's holidays, pauses stop the clock, purge after 3 years.
 */
export const SETTINGS_FILE_NAME = 'requests-settings.json';

export function defaultRegisterSettings(): RegisterSettings {
  return { timeZone: systemTimeZone(), country: 'FR', pauseStopsClock: true, purgeAfterYears: DEFAULT_PURGE_AFTER_YEARS };
}

export async function readRegisterSettings(dataDir: string): Promise<RegisterSettings> {
  // Whoever reads the settings computes a deadline next: the calendar it needs is loaded here, once.
  await loadHolidayCalendar();
  const path = join(dataDir, SETTINGS_FILE_NAME);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultRegisterSettings();
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw settingsDamaged(path, 'not JSON');
  }
  return parseRegisterSettings(value, path);
}

const settingsDamaged = (path: string, problem: string) => new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('requests.settingsDamaged', { path, problem }) });

/** Settings as kept (a file's JSON, a database's row), the defaults filling what is not there; `where` names the place when they are damaged. */
export function parseRegisterSettings(value: unknown, where: string): RegisterSettings {
  const parsed = registerSettingsSchema.safeParse({ ...defaultRegisterSettings(), ...(typeof value === 'object' && value !== null ? value : {}) });
  if (!parsed.success) throw settingsDamaged(where, parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  if (!isValidTimeZone(parsed.data.timeZone)) throw settingsDamaged(where, `unknown time zone ${parsed.data.timeZone}`);
  return parsed.data;
}

/** Every given setting checked (INVALID_INPUT saying which) before anything is written. */
export function checkSettingsChanges(changes: Partial<RegisterSettings>): void {
  if (changes.timeZone !== undefined && !isValidTimeZone(changes.timeZone)) throw invalidInput(msg('requests.badTimeZone', { zone: changes.timeZone }));
  if (changes.country !== undefined && !isSupportedCountry(changes.country)) throw invalidInput(msg('requests.badCountry', { country: changes.country }));
}

/** The settings in force after `changes` (INVALID_INPUT when the result is not valid). */
export function mergeRegisterSettings(current: RegisterSettings, changes: Partial<RegisterSettings>): RegisterSettings {
  const next = registerSettingsSchema.safeParse({ ...current, ...changes });
  if (!next.success) {
    const issue = next.error.issues[0];
    throw invalidInput(msg('requests.invalid', { field: issue?.path.join('.') ?? 'settings', problem: issue?.message ?? 'is not valid' }));
  }
  return next.data;
}

/** Checks every given setting before anything is written, then writes them all at once; returns the settings now in force. */
export async function saveRegisterSettings(dataDir: string, changes: Partial<RegisterSettings>, lockOptions: DataLockOptions = {}): Promise<RegisterSettings> {
  await loadHolidayCalendar();
  checkSettingsChanges(changes);
  return withDataLock(
    dataDir,
    REQUESTS_LOCK,
    async () => {
      const next = mergeRegisterSettings(await readRegisterSettings(dataDir), changes);
      await writeFileAtomic(join(dataDir, SETTINGS_FILE_NAME), `${JSON.stringify(next, null, 2)}\n`);
      return next;
    },
    lockOptions,
  );
}
