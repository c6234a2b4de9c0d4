import type { Page } from '@playwright/test';
import { test, expect, createSandboxUser, sandboxUser } from './fixtures';
import { deleteWithBuiltCli } from './sandbox-helpers';
import { actOnUid, expectNoSeriousAxeViolations, holdPageClock, runCountdown, saveScreenshot } from './support';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

interface Listed {
  uid: string | null;
  fullName: string | null;
}

test.describe('find a person on any page', () => {
  test('type a name without its accents, see it highlighted, open it and anonymise from there', async ({ app, bridge, profile, sandbox }, testInfo) => {
    // Someone beyond the first page, with an accent in their name: "Filter this page" could not find them.
    const everyone: Listed[] = [];
    for (let page = 1; page <= 6; page += 1) {
      const listed = await bridge('users.list', { profileId: profile.id, page, perPage: 10 });
      if (!listed.ok) throw new Error(listed.error.message);
      everyone.push(...(listed.value as { users: Listed[] }).users);
    }
    const person = everyone.slice(10).find((u) => u.uid !== null && u.fullName !== null && fold(u.fullName) !== u.fullName.toLowerCase());
    expect(person, 'the sandbox seeds accented names beyond the first page').toBeDefined();
    const typed = fold(person!.fullName!);

    const finder = app.getByRole('search');
    await finder.getByLabel('Find a person — every page').fill(typed);
    await finder.getByRole('button', { name: 'Find' }).click();
    const results = app.getByRole('list', { name: `People matching “${typed}”` });
    await expect(results).toBeVisible({ timeout: 15_000 });
    const result = results.getByRole('button', { name: `Open ${person!.fullName}` });
    await expect(result).toBeVisible();
    // The matched part is marked in the name as the service wrote it, accents included.
    await expect(result.locator('mark').first()).toHaveText(person!.fullName!);

    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      for (const theme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await results.scrollIntoViewIfNeeded();
        await saveScreenshot(app, testInfo, `find-person-${size.width}x${size.height}`, theme, { fullPage: false });
      }
    }
    await expectNoSeriousAxeViolations(app, testInfo, 'find a person');

    await result.click();
    const panel = app.getByRole('complementary');
    await expect(panel).toContainText(person!.uid!);
    await panel.getByRole('button', { name: `Anonymise ${person!.uid}` }).click();
    const dialog = app.getByRole('dialog', { name: `Anonymise user ${person!.uid}` });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel('Type the uid to confirm').fill(person!.uid!);
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await runCountdown(app, dialog);
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    expect((await sandboxUser(sandbox, person!.uid!)).state).toBe('anonymized');
    // The index was updated by the erasure: the person is no longer found by that name.
    await expect(results.getByRole('button', { name: `Open ${person!.fullName}` })).toHaveCount(0, { timeout: 15_000 });
    // The detail panel says what happened and offers nothing more to do to that person.
    await expect(panel).toContainText('Anonymised just now');
    await expect(panel.getByRole('button', { name: /Anonymise|Delete/ })).toHaveCount(0);
    await app.clock.resume();
    await panel.scrollIntoViewIfNeeded();
    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      for (const theme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await saveScreenshot(app, testInfo, `after-erasure-detail-${size.width}x${size.height}`, theme, { fullPage: false });
      }
    }
  });
});

async function find(page: Page, text: string): Promise<void> {
  const finder = page.getByRole('search');
  await finder.getByLabel('Find a person — every page').fill(text);
  await finder.getByRole('button', { name: 'Find' }).click();
}

test.describe('what the console says about a person was just checked', () => {
  test('a user created after the list was read is found by “Act on a uid” after a fresh read, and the identity box says how old its list is', async ({ app, sandbox }, testInfo) => {
    // Time flows as usual, but the test can jump it forward (the list's age is shown in the window's clock).
    await app.clock.install();
    await app.reload();
    await find(app, 'dupont');
    await expect(app.getByRole('list', { name: 'People matching “dupont”' })).toBeVisible({ timeout: 15_000 });
    const indexCalls: string[] = [];
    app.on('request', (request) => {
      if (new URL(request.url()).pathname === '/bridge/users.index') indexCalls.push(request.url());
    });

    await createSandboxUser(sandbox, 'late arrival', { full_name: 'Late Arrival', email: 'late.arrival@example.org' });
    const dialog = await actOnUid(app, 'late arrival', 'Delete');
    const identity = dialog.getByRole('region', { name: /^Who this uid belongs to/ });
    await expect(identity).toContainText('Late Arrival', { timeout: 15_000 });
    await expect(identity).toContainText('List read just now.');
    expect(indexCalls, 'the list was read again for this question').toHaveLength(1);
    await expect(dialog).not.toContainText('Not seen on the service’s list');
    await expect(dialog.getByLabel('Type the uid to confirm')).toBeVisible();

    // The age keeps up with time.
    await app.clock.fastForward('05:00');
    await expect(identity).toContainText('List read 5 min ago.');
    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      for (const theme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await saveScreenshot(app, testInfo, `erasure-identity-age-${size.width}x${size.height}`, theme, { fullPage: false });
      }
    }
  });

  test('a user deleted by the CLI meanwhile is no longer offered: not in the search, and the dialog says what the audit trail records', async ({ app, sandbox, dataDir }, testInfo) => {
    const uid = 'jean dupont';
    await find(app, 'dupont');
    const results = app.getByRole('list', { name: 'People matching “dupont”' });
    // The uid is drawn with its space visible (jean␣dupont).
    await expect(results.getByRole('button', { name: /^Open / }).filter({ hasText: 'jean␣dupont' })).toHaveCount(1, { timeout: 15_000 });
    const table = app.getByRole('table', { name: 'Users on page 1' });
    await expect(table.getByRole('button', { name: `Delete ${uid}` })).toBeVisible();

    await deleteWithBuiltCli(sandbox, dataDir, uid);
    expect((await sandboxUser(sandbox, uid)).state).toBe('deleted');

    // The search asked again leaves them out: the audit trail told the console before it answered.
    await find(app, 'jean dupont');
    await expect(app.getByText('Nobody matches “jean dupont”', { exact: false })).toBeVisible({ timeout: 15_000 });
    await expect(app.getByText('List read just now.', { exact: false })).toBeVisible();

    // The page loaded before keeps the row, marked with what the audit trail records, and offers no act on it.
    const row = table.locator('tbody tr').filter({ has: app.getByRole('button', { name: `Show details of ${uid}` }) });
    await expect(row).toContainText('Deleted from the command line', { timeout: 15_000 });
    await expect(row.getByRole('button', { name: `Delete ${uid}` })).toHaveCount(0);
    // The uid typed from the ticket no longer leads to a confirmation either.
    await actOnUid(app, uid, 'Delete');
    const dialog = app.getByRole('dialog', { name: 'Delete user jean␣dupont' });
    await expect(dialog).toContainText('Not seen on the service’s list — check the uid.', { timeout: 15_000 });
    await expect(dialog).toContainText('read just now, has no user with exactly this uid');
    await expect(dialog).toContainText(/The audit trail on this computer records a deletion of this uid on .+, from the command line\./);
    await expect(dialog.getByLabel('Type the uid to confirm')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Continue anyway' })).toHaveCount(0);
    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      for (const theme of ['light', 'dark'] as const) {
        await app.setViewportSize(size);
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await saveScreenshot(app, testInfo, `erasure-erased-by-cli-${size.width}x${size.height}`, theme, { fullPage: false });
      }
    }
    // The same, in French, as the operator may have chosen.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await expect(app.getByRole('table', { name: 'Utilisateurs de la page 1' }).locator('tbody tr').filter({ hasText: 'Supprimé depuis la ligne de commande' })).toHaveCount(1);
    await app.getByRole('region', { name: 'Agir sur un uid' }).getByRole('button', { name: 'Supprimer', exact: true }).click();
    const dialogFr = app.getByRole('dialog', { name: 'Supprimer l’utilisateur jean␣dupont' });
    await expect(dialogFr).toContainText('Absent de la liste du service — vérifiez l’uid.', { timeout: 15_000 });
    await expect(dialogFr).toContainText(/Le journal d’audit de cet ordinateur enregistre une suppression de cet uid le .+, depuis la ligne de commande\./);
    await app.setViewportSize({ width: 1024, height: 700 });
    await saveScreenshot(app, testInfo, 'erasure-erased-by-cli-1024x700-fr', 'dark', { fullPage: false });
  });

  test('when the service is down, the dialog says it could not be reached, with a retry — never that no user has the uid', async ({ app, sandbox }, testInfo) => {
    await sandbox.close();
    const dialog = await actOnUid(app, 'someone else', 'Delete');
    const alert = dialog.getByRole('alert');
    // Each page is given 15 s, retries included, before the read gives up and says why.
    await expect(alert).toContainText('The service could not be reached: this uid was not checked', { timeout: 40_000 });
    await expect(alert.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(dialog).not.toContainText(/No user with exactly this uid|has no user with exactly this uid|Not seen on the service’s list/);
    await saveScreenshot(app, testInfo, 'erasure-service-unreachable-1360x850', 'light', { fullPage: false });
  });
});

