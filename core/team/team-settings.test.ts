import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../credential-store';
import { forgetTeamPassword, keepTeamPassword, readTeamSetting, removeTeamSetting, teamPassword, teamSettingPath, writeTeamSetting } from './team-settings';

const folders: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'privacy-desk-team-setting-'));
  folders.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const setting = { format: 1 as const, address: 'postgres://dpo@db.example.org:5432/desk', connectedAt: '2026-11-24T22:00:00.000Z', connectedBy: { operator: 'dpo', desktop: 'laptop-1' } };

describe('the team setting of a data folder', () => {
  it('is absent in local mode, and once written reads back with its address under the same rules', async () => {
    const dir = dataDir();
    expect(await readTeamSetting(dir)).toBeNull();
    await writeTeamSetting(dir, setting);
    const read = await readTeamSetting(dir);
    expect(read).toMatchObject({ ...setting, database: { host: 'db.example.org', user: 'dpo', database: 'desk', tls: true } });
    if (process.platform !== 'win32') expect(statSync(teamSettingPath(dir)).mode & 0o777).toBe(0o600);
    expect(await removeTeamSetting(dir)).toBe(true);
    expect(await readTeamSetting(dir)).toBeNull();
    expect(await removeTeamSetting(dir)).toBe(false);
  });

  it('refuses a damaged file or an address with a password instead of falling back to local mode (which would fork the trail)', async () => {
    const dir = dataDir();
    writeFileSync(teamSettingPath(dir), '{ not json');
    await expect(readTeamSetting(dir)).rejects.toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent', message: expect.stringMatching(/cannot be read \(not JSON\)/) });
    writeFileSync(teamSettingPath(dir), JSON.stringify({ ...setting, address: 'postgres://dpo:hunter2@db.example.org/desk' }));
    const refused = await readTeamSetting(dir).catch((error: unknown) => error as Error);
    expect(refused).toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE' });
    expect(String(refused)).not.toContain('hunter2');
  });

  it('keeps the password in the keychain, never in the file; the environment is the fallback; forgetting removes it', async () => {
    const dir = dataDir();
    const keychain = createSessionCredentialStore();
    await writeTeamSetting(dir, setting);
    expect(await teamPassword(dir, keychain, {})).toBeNull();
    expect(await teamPassword(dir, keychain, { PRIVACY_DESK_DATABASE_PASSWORD: 'from-env' })).toBe('from-env');
    await keepTeamPassword(dir, keychain, 'kept-secret-1');
    expect(await teamPassword(dir, keychain, { PRIVACY_DESK_DATABASE_PASSWORD: 'from-env' })).toBe('kept-secret-1');
    expect(readFileSync(teamSettingPath(dir), 'utf8')).not.toContain('kept-secret-1');
    await forgetTeamPassword(dir, keychain);
    expect(await teamPassword(dir, keychain, {})).toBeNull();
    // Another data folder has its own entry.
    await keepTeamPassword(dir, keychain, 'kept-secret-1');
    expect(await teamPassword(dataDir(), keychain, {})).toBeNull();
  });
});
