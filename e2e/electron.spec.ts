import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';
import { installedElectronBinary } from '../scripts/electron-binary.mjs';

/** The Electron binary's path, or why it cannot be used here (asking never starts a download). */
function electronBinary(): { path: string } | { reason: string } {
  return installedElectronBinary(resolve('.'));
}

/** A skip that says why, in the list output as well as in the report's annotations. */
function skipLoudly(reason: string): void {
  console.warn(`[electron smoke skipped] ${reason}`);
  test.skip(true, reason);
}

test('Electron smoke: the window opens, the Sandbox profile appears and the users table has rows', async () => {
  const binary = electronBinary();
  if ('reason' in binary) return skipLoudly(`Electron binary not installed: ${binary.reason} (npm start downloads it where GitHub is reachable)`);
  if (!existsSync(resolve('dist/electron/main.cjs'))) return skipLoudly('dist/electron/main.cjs is missing: run `npm run build:electron` (npm test builds it first)');

  const dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-e2e-electron-'));
  const app = await electron.launch({
    executablePath: binary.path,
    args: ['.', '--no-sandbox'],
    env: { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir } as Record<string, string>,
  });
  try {
    const window = await app.firstWindow();
    await expect(window.getByRole('tablist', { name: 'Main' })).toBeVisible({ timeout: 30_000 });
    await expect(window.getByRole('combobox', { name: 'Active profile' })).toContainText('Sandbox');
    const rows = window.getByRole('table', { name: 'Users on page 1' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    expect(await rows.count()).toBeGreaterThan(0);
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});
