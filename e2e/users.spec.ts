import type { Page } from '@playwright/test';
import type { UserRecord } from '../shared/users';
import { test, expect } from './fixtures';
import { deleteWithBuiltCli, putSandboxFaults } from './sandbox-helpers';
import { photograph } from './support';

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

    await deleteWithBuiltCli(sandbox, dataDir, uid);

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
    await photograph(app, testInfo, 'users-erased-by-cli', { restoreSize: true });

    // Its detail panel says the same, with when the audit trail recorded it.
    await row.getByRole('button', { name: `Show details of ${uid}` }).click();
    const panel = app.getByRole('complementary', { name: 'User details' });
    await expect(panel).toContainText(/Deleted from the command line\. The audit trail on this computer records a deletion of this uid on .+, from the command line\./);
    await expect(panel.getByRole('button', { name: /^(Anonymise|Delete) jean dupont$/ })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Close details' }).click();

    // Refresh while the service fails: the old page stays only under a banner saying when it was read.
    await putSandboxFaults(sandbox.url, { errorRate: 1 });
    await app.getByRole('button', { name: 'Refresh' }).click();
    const banner = app.getByRole('alert').filter({ hasText: 'Refreshing failed' });
    await expect(banner).toContainText(/Refreshing failed: this page was read at \d{1,2}:\d{2}\s?[AP]M \((just now|\d+ min ago)\) and may be out of date\./, { timeout: 20_000 });
    await expect(row).toContainText('Deleted from the command line');
    await photograph(app, testInfo, 'users-refresh-failed', { restoreSize: true });

    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    const rowFr = app.getByRole('table', { name: 'Utilisateurs de la page 1' }).locator('tbody tr').filter({ has: app.getByRole('button', { name: `Afficher le détail de ${uid}` }) });
    await expect(rowFr).toContainText('Supprimé depuis la ligne de commande');
    await expect(app.getByRole('alert').filter({ hasText: 'L’actualisation a échoué' })).toContainText('cette page a été lue à');
    await expect(app.getByRole('navigation', { name: 'Pagination' })).toContainText('60 utilisateurs · lue');
    await photograph(app, testInfo, 'users-erased-by-cli-fr', { restoreSize: true });
  });
});

