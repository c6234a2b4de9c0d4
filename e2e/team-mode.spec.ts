import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, type Browser, type Page } from '@playwright/test';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { startWebHost, type RunningWebHost } from '../web-host/web-host';
import { pgSkipReason, startPgCluster, type PgCluster } from '../tests/support/pg-cluster';
import { bridgeCaller, uniqueName, waitForConsole, type BridgeCaller } from './fixtures';
import { openAudit, saveScreenshot } from './support';

/**
 * Two desktops of one team: two web hosts, each with its own data folder and keychain entry, on one PostgreSQL
 * database (a temporary cluster). The first is connected from its settings screen, the second through its bridge;
 * an erasure and a request made on the first appear in the second's audit view and register.
 */
const skip = pgSkipReason();
test.skip(skip !== null, `team mode needs a PostgreSQL server: ${skip ?? ''}`);
test.describe.configure({ mode: 'serial' });

interface Desktop {
  dataDir: string;
  host: RunningWebHost;
  bridge: BridgeCaller;
  profileId: string;
}

let cluster: PgCluster;
let databaseUrl: string;
let sandbox: RunningSandbox;
const desktops: Desktop[] = [];

async function startDesktop(): Promise<Desktop> {
  const dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-team-e2e-'));
  const host = await startWebHost({ port: 0, dataDir, bundledSandbox: false, staticDir: 'dist/renderer', version: '0.0.0-e2e' });
  const bridge = bridgeCaller(host);
  const { apiKey, apiSecret, applicationName } = sandbox.credentials;
  const saved = await bridge('profiles.save', { name: uniqueName('Team desk'), baseUrl: sandbox.url, applicationName, apiKey, apiSecret });
  if (!saved.ok) throw new Error(`Saving the profile failed: ${saved.error.message}`);
  await bridge('profiles.setActive', { id: saved.value.id });
  return { dataDir, host, bridge, profileId: saved.value.id };
}

async function openConsole(browser: Browser, desktop: Desktop): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(desktop.host.url);
  await waitForConsole(page);
  return page;
}

/** Every file of a folder, read whole (the password must be in none of them). */
async function filesUnder(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) texts.push(...(await filesUnder(path)));
    else texts.push(await readFile(path, 'utf8'));
  }
  return texts;
}

test.beforeAll(async () => {
  cluster = await startPgCluster({ fsync: false });
  databaseUrl = await cluster.createDatabase('team_e2e');
  sandbox = await startSandbox({ users: 20 });
  desktops.push(await startDesktop(), await startDesktop());
});

test.afterAll(async () => {
  for (const desktop of desktops) {
    // The keychain entry goes with the setting; the shared test keyring stays clean.
    await desktop.bridge('team.disconnect', {}).catch(() => undefined);
    await desktop.host.close();
    await rm(desktop.dataDir, { recursive: true, force: true });
  }
  await sandbox?.close();
  await cluster?.destroy();
});

test('two desktops on one team database: an erasure and a request made on one appear in the other’s audit view and register', async ({ browser }, testInfo) => {
  const [first, second] = desktops as [Desktop, Desktop];

  // The first desktop is connected from its settings screen.
  const firstPage = await openConsole(browser, first);
  await firstPage.getByRole('tab', { name: /^Profiles/ }).click();
  const section = firstPage.getByTestId('team-mode');
  await section.getByLabel('Database address').fill(databaseUrl);
  await section.getByLabel('Password').fill(cluster.password);
  await section.getByRole('button', { name: 'Connect' }).click();
  await expect(section.getByTestId('team-reachable')).toHaveText(/Reachable as role desk from /);
  await expect(firstPage.getByTestId('team-badge')).toHaveText(`Team: ${databaseUrl.replace('postgres://', '')}`);
  await expect(section.getByLabel('Password')).toHaveCount(0);
  await saveScreenshot(firstPage, testInfo, 'team-mode-settings', 'light');

  // The second through its bridge, as a script would.
  const connected = await second.bridge('team.connect', { databaseUrl, password: cluster.password });
  expect(connected.ok && connected.value).toMatchObject({ mode: 'team', reachable: true, role: 'desk' });

  // An erasure and a request on the first desktop.
  const listed = await first.bridge('users.list', { profileId: first.profileId, page: 1, perPage: 5 });
  if (!listed.ok) throw new Error(listed.error.message);
  const uid = listed.value.users[2]!.uid!;
  const erased = await first.bridge('users.erase', { profileId: first.profileId, action: 'anonymize', uid, confirmUid: uid, logoutFirst: false, reference: 'TEAM-E2E-1' });
  expect(erased.ok, erased.ok ? '' : erased.error.message).toBe(true);
  const request = await first.bridge('requests.create', { receivedAt: new Date().toISOString(), channel: 'letter', actions: ['anonymize'], subjects: [{ uid, profileId: first.profileId }], notes: 'Made on the first desktop.' });
  if (!request.ok) throw new Error(request.error.message);

  // The second desktop's console shows them: its trail and its register are the team's.
  const secondPage = await openConsole(browser, second);
  await expect(secondPage.getByTestId('team-badge')).toHaveText(`Team: ${databaseUrl.replace('postgres://', '')}`);
  const table = await openAudit(secondPage);
  await expect(table.getByText('TEAM-E2E-1').first()).toBeVisible();
  await expect(table.getByText(uid, { exact: true }).first()).toBeVisible();
  await secondPage.getByRole('tab', { name: /^Requests/ }).click();
  await expect(secondPage.getByText(request.value.id).first()).toBeVisible();

  // Neither data folder holds the database password, nor their local trails an entry: the acts are in the database.
  for (const desktop of desktops) {
    for (const text of await filesUnder(desktop.dataDir)) expect(text).not.toContain(cluster.password);
    await expect(stat(join(desktop.dataDir, 'audit.jsonl'))).rejects.toThrow();
  }
  await firstPage.close();
  await secondPage.close();
});

/** The built CLI on a desktop's data folder, in a process of its own (as an operator runs it), the password from the environment. */
function privacyDesk(desktop: Desktop, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PRIVACY_DESK_DATA_DIR: desktop.dataDir, PRIVACY_DESK_DATABASE_PASSWORD: cluster.password, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' };
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/privacy-desk.js', ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('a desktop that worked alone moves its trail into the team from its settings: the other desktop sees its erasure, and audit verify passes', async ({ browser }, testInfo) => {
  const second = desktops[1]!;
  // A third desktop erases someone on its own files, then joins the team.
  const third = await startDesktop();
  desktops.push(third);
  const listed = await third.bridge('users.list', { profileId: third.profileId, page: 1, perPage: 10 });
  if (!listed.ok) throw new Error(listed.error.message);
  const uid = listed.value.users[7]!.uid!;
  const erased = await third.bridge('users.erase', { profileId: third.profileId, action: 'delete', uid, confirmUid: uid, logoutFirst: false, reference: 'BEFORE-TEAM-1' });
  expect(erased.ok, erased.ok ? '' : erased.error.message).toBe(true);
  const localLines = (await readFile(join(third.dataDir, 'audit.jsonl'), 'utf8')).split('\n').filter((line) => line.trim()).length;
  expect(localLines).toBeGreaterThan(0);
  const connected = await third.bridge('team.connect', { databaseUrl, password: cluster.password });
  expect(connected.ok, connected.ok ? '' : connected.error.message).toBe(true);

  // From its settings: what would move is read first, and the move asks for IMPORT.
  const page = await openConsole(browser, third);
  await page.getByRole('tab', { name: /^Profiles/ }).click();
  await page.getByTestId('team-mode').getByRole('button', { name: 'Move this computer’s trail, jobs and register into the team database' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('team-import-preview')).toContainText(`${localLines} audit entries`);
  await expect(dialog.getByTestId('team-import-preview')).toContainText('0 batch jobs');
  const confirm = dialog.getByRole('button', { name: 'Move into the team database' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type IMPORT to confirm').fill('IMPORT');
  await saveScreenshot(page, testInfo, 'team-import-dialog', 'light');
  await confirm.click();
  const result = dialog.getByTestId('team-import-result');
  await expect(result).toContainText(`${localLines} audit entries, 0 batch jobs, 0 requests`);
  await expect(result).toContainText('The local chain’s head');
  await saveScreenshot(page, testInfo, 'team-import-done', 'light');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('team-imported-at')).toBeVisible();

  // A second import is refused, with nothing written.
  const again = await third.bridge('team.import', { confirmation: 'IMPORT' });
  expect(again.ok).toBe(false);
  if (!again.ok) expect(again.error.message).toContain('A second import is refused');

  // The other desktop's audit view shows the erasure made before the third joined.
  const secondPage = await openConsole(browser, second);
  const table = await openAudit(secondPage);
  await expect(table.getByText('BEFORE-TEAM-1').first()).toBeVisible();
  await expect(table.getByText(uid, { exact: true }).first()).toBeVisible();

  // The team chain, the imported lines joined into it, verifies from either desktop's CLI.
  for (const desktop of [second, third]) {
    const verify = await privacyDesk(desktop, ['audit', 'verify']);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/^Verified/m);
  }
  await page.close();
  await secondPage.close();
});
