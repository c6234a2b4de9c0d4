import { spawn } from 'node:child_process';
import type { Page, TestInfo } from '@playwright/test';
import type { UserRecord } from '../shared/users';
import { test, expect } from './fixtures';
import { saveScreenshot } from './support';

function usersTable(page: Page, pageNumber: number) {
  return page.getByRole('table', { name: `Users on page ${pageNumber}` });
}

function bodyRows(page: Page, pageNumber: number) {
  return usersTable(page, pageNumber).locator('tbody tr');
}

test.describe('users', () => {
  test('pages through 60 users: next, previous, last and users per page', async ({ app }) => {
    const pagination = app.getByRole('navigation', { name: 'Pagination' });
    await expect(app.getByRole('combobox', { name: 'Users per page' })).toHaveValue('25');
    await expect(bodyRows(app, 1)).toHaveCount(25);
    await expect(pagination).toContainText('Page 1 of 3');
    await expect(pagination).toContainText('60 users');
    await expect(pagination.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await pagination.getByRole('button', { name: 'Next page' }).click();
    await expect(pagination).toContainText('Page 2 of 3');
    await expect(bodyRows(app, 2)).toHaveCount(25);

    await pagination.getByRole('button', { name: 'Last page' }).click();
    await expect(pagination).toContainText('Page 3 of 3');
    await expect(bodyRows(app, 3)).toHaveCount(10);
    await expect(pagination.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await expect(pagination.getByRole('button', { name: 'Last page' })).toBeDisabled();

    await pagination.getByRole('button', { name: 'Previous page' }).click();
    await expect(pagination).toContainText('Page 2 of 3');
    await expect(bodyRows(app, 2)).toHaveCount(25);

    await app.getByRole('combobox', { name: 'Users per page' }).selectOption('10');
    await expect(pagination).toContainText('Page 1 of 6');
    await expect(bodyRows(app, 1)).toHaveCount(10);

    await app.getByRole('combobox', { name: 'Users per page' }).selectOption('25');
    await expect(pagination).toContainText('Page 1 of 3');
    await expect(bodyRows(app, 1)).toHaveCount(25);
  });

  test('the quick filter narrows the page to matching uids, names and e-mails', async ({ app, bridge, profile }) => {
    const listed = await bridge('users.list', { profileId: profile.id, page: 1, perPage: 25 });
    if (!listed.ok) throw new Error(listed.error.message);
    const target = listed.value.users.find((u: UserRecord) => u.email && u.uid && u.fullName);
    if (!target?.email || !target.uid) throw new Error('The seeded first page has no user with an e-mail.');
    const needle = target.email.toLocaleLowerCase();
    const expected = listed.value.users.filter((u: UserRecord) => [u.uid, u.fullName, u.email].some((v) => v?.toLocaleLowerCase().includes(needle))).length;

    await expect(bodyRows(app, 1)).toHaveCount(25);
    const filter = app.getByRole('searchbox', { name: 'Filter this page' });
    await filter.fill(target.email);
    await expect(bodyRows(app, 1)).toHaveCount(expected);
    await expect(usersTable(app, 1).getByRole('button', { name: `Show details of ${target.uid}` })).toBeVisible();

    await filter.fill('zz-nobody-has-this-zz');
    await expect(app.getByText('No user on this page matches “zz-nobody-has-this-zz”.')).toBeVisible();
    await filter.fill('');
    await expect(bodyRows(app, 1)).toHaveCount(25);
  });

  test('a row opens its detail panel with every field the service sent', async ({ app, bridge, profile }) => {
    const listed = await bridge('users.list', { profileId: profile.id, page: 1, perPage: 25 });
    if (!listed.ok) throw new Error(listed.error.message);
    const target = listed.value.users.find((u: UserRecord) => u.uid === 'jean dupont');
    if (!target?.fullName || !target.email) throw new Error('Seed user "jean dupont" is missing from page 1.');

    await usersTable(app, 1).getByRole('button', { name: 'Show details of jean dupont' }).click();
    const panel = app.getByRole('complementary', { name: 'User details' });
    await expect(panel).toBeVisible();
    await expect(panel).toContainText(target.fullName);
    await expect(panel).toContainText(target.email);
    await expect(panel.getByRole('button', { name: 'Anonymise jean dupont' })).toBeVisible();
    await panel.getByRole('button', { name: 'Close details' }).click();
    await expect(panel).toBeHidden();
  });

  test('a user deleted from the command line while the page is shown is marked on it, by whom, with no act left; each count says when it was read; a failed Refresh says the page is old', async ({ app, sandbox, dataDir }, testInfo) => {
    const uid = 'jean dupont';
    const pagination = app.getByRole('navigation', { name: 'Pagination' });
    await expect(pagination).toContainText('Page 1 of 3 · 60 users · read just now');
    const row = bodyRows(app, 1).filter({ has: app.getByRole('button', { name: `Show details of ${uid}` }) });
    await expect(row.getByRole('button', { name: `Delete ${uid}` })).toBeVisible();

    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    const cli = await runBuiltCli(['--base-url', sandbox.url, '--app', applicationName, 'users', 'delete', uid, '--confirm', uid, '--no-logout-first'], {
      PRIVACY_DESK_DATA_DIR: dataDir,
      PRIVACY_DESK_API_KEY: apiKey,
      PRIVACY_DESK_API_SECRET: apiSecret,
    });
    expect(cli.code, cli.output).toBe(0);

    // Within a few seconds, without a Refresh: the row stays, says what happened and from where, and offers nothing.
    await expect(row).toContainText('Deleted from the command line', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: /^(Anonymise|Delete|Test logout) jean dupont$/ })).toHaveCount(0);
    await expect(app.getByRole('status', { name: 'Users erased since the page was read' })).toContainText('1 user on this page was erased since the page was read');
    // The page's count is the page's, as read then; "Find a person" counts the list it read now, and says so.
    const finder = app.getByRole('search');
    await finder.getByLabel('Find a person — every page').fill(uid);
    await finder.getByRole('button', { name: 'Find' }).click();
    await expect(app.getByText(`Nobody matches “${uid}” among 59 users.`, { exact: false })).toBeVisible({ timeout: 15_000 });
    await expect(app.locator('.find-person__age')).toHaveText('List read just now.');
    await expect(pagination).toContainText('60 users · read');
    await row.scrollIntoViewIfNeeded();
    await photograph(app, testInfo, 'users-erased-by-cli');

    // Its detail panel says the same, with when the audit trail recorded it.
    await row.getByRole('button', { name: `Show details of ${uid}` }).click();
    const panel = app.getByRole('complementary', { name: 'User details' });
    await expect(panel).toContainText(/Deleted from the command line\. The audit trail on this computer records a deletion of this uid on .+, from the command line\./);
    await expect(panel.getByRole('button', { name: /^(Anonymise|Delete) jean dupont$/ })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Close details' }).click();

    // Refresh while the service fails: the old page stays only under a banner saying when it was read.
    await putFaults(sandbox.url, { errorRate: 1 });
    await app.getByRole('button', { name: 'Refresh' }).click();
    const banner = app.getByRole('alert').filter({ hasText: 'Refreshing failed' });
    await expect(banner).toContainText(/Refreshing failed: this page was read at \d{1,2}:\d{2}\s?[AP]M \((just now|\d+ min ago)\) and may be out of date\./, { timeout: 20_000 });
    await expect(row).toContainText('Deleted from the command line');
    await photograph(app, testInfo, 'users-refresh-failed');

    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    const rowFr = app.getByRole('table', { name: 'Utilisateurs de la page 1' }).locator('tbody tr').filter({ has: app.getByRole('button', { name: `Afficher le détail de ${uid}` }) });
    await expect(rowFr).toContainText('Supprimé depuis la ligne de commande');
    await expect(app.getByRole('alert').filter({ hasText: 'L’actualisation a échoué' })).toContainText('cette page a été lue à');
    await expect(app.getByRole('navigation', { name: 'Pagination' })).toContainText('60 utilisateurs · lue');
    await photograph(app, testInfo, 'users-erased-by-cli-fr');
  });
});

const SIZES = [
  { width: 1360, height: 850 },
  { width: 1024, height: 700 },
] as const;

/** The screen at both sizes, in both themes. */
async function photograph(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await saveScreenshot(page, testInfo, `${name}-${size.width}x${size.height}`, theme, { fullPage: false });
    }
  }
  await page.setViewportSize(SIZES[0]);
}

async function putFaults(sandboxUrl: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  expect(response.ok).toBe(true);
}

/** The built CLI (bin/privacy-desk.js → dist/cli/main.js), as an operator would run it at the same time, on the same data folder. */
function runBuiltCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
