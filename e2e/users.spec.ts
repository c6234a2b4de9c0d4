import type { Page } from '@playwright/test';
import type { UserRecord } from '../shared/users';
import { test, expect } from './fixtures';

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
});
