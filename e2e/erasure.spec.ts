import type { Locator, Page, TestInfo } from '@playwright/test';
import { test, expect, loginSandboxUser, sandboxUser } from './fixtures';
import { COUNTDOWN_SECONDS, actOnUid, holdPageClock, photograph, runCountdown } from './support';

/** A uid as titles and notices draw it: each space as ␣. */
const drawn = (uid: string) => uid.replace(/ /g, '␣');

async function stats(sandboxUrl: string): Promise<{ apiRequests: number }> {
  return (await (await fetch(`${sandboxUrl}/sandbox/stats`)).json()) as { apiRequests: number };
}

test.describe('erasure', () => {
  test('anonymise through the typed confirmation: near misses keep Confirm disabled, then countdown, notice, sandbox and audit', async ({ app, sandbox }) => {
    const uid = 'jean dupont';
    expect(await loginSandboxUser(sandbox, uid)).toBeGreaterThan(0);
    await app.getByRole('table', { name: 'Users on page 1' }).getByRole('button', { name: `Anonymise ${uid}` }).click();
    const dialog = app.getByRole('dialog', { name: `Anonymise user ${drawn(uid)}` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('This CANNOT BE UNDONE.');
    const typed = dialog.getByLabel('Type the uid to confirm');
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    await expect(confirm).toBeDisabled();

    await typed.fill('Jean Dupont');
    await expect(confirm).toBeDisabled();
    await expect(dialog).toContainText('Does not match: check upper and lower case');
    await typed.fill(`${uid} `);
    await expect(confirm).toBeDisabled();
    await expect(dialog).toContainText('Does not match: check the spaces at the start or end');
    await typed.fill(uid);
    await expect(confirm).toBeEnabled();
    await expect(dialog).toContainText('✓ Matches the uid');
    await dialog.getByLabel('Reference (optional)').fill('TICKET-4242');
    await expect(dialog.getByRole('checkbox', { name: 'End the user’s sessions first' })).toBeChecked();

    await holdPageClock(app);
    await confirm.click();
    await runCountdown(app, dialog, async () => {
      expect((await sandboxUser(sandbox, uid)).state, 'nothing is sent during the countdown').toBe('active');
    });

    await expect(
      app.getByRole('status').getByText(new RegExp(`^User ${drawn(uid)} anonymised \\(request id [^)]+\\)\\. Sessions ended first \\(logout accepted\\)\\. Verified: the uid no longer resolves\\.$`)),
    ).toBeVisible({ timeout: 15_000 });
    await expect(dialog).toBeHidden();
    expect(await sandboxUser(sandbox, uid)).toMatchObject({ state: 'anonymized', sessionCount: 0 });
    // The old uid no longer appears in the list.
    await expect(app.getByRole('table', { name: 'Users on page 1' }).getByRole('button', { name: `Show details of ${uid}` })).toHaveCount(0);

    await app.getByRole('tab', { name: 'Audit trail' }).click();
    const row = app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: drawn(uid) });
    await expect(row.first()).toContainText('Anonymise');
    await expect(row.first()).toContainText('Done');
    await expect(row.first()).toContainText('TICKET-4242');
  });

  test('anonymise an awkward uid typed in "Act on a uid"', async ({ app, sandbox }) => {
    const uid = 'mixed /?#% ü+';
    await actOnUid(app, uid, 'Anonymise', { goOnIfUnseen: true });
    const dialog = app.getByRole('dialog', { name: `Anonymise user ${drawn(uid)}` });
    await dialog.getByLabel('Type the uid to confirm').fill(uid);
    // Without "end the sessions first" only the erasure (and its check) is sent.
    await dialog.getByRole('checkbox', { name: 'End the user’s sessions first' }).uncheck();
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await runCountdown(app, dialog);
    await expect(app.getByRole('status').getByText(new RegExp(`^User ${drawn(uid).replace(/[/?#%+]/g, '\\$&')} anonymised \\(request id [^)]+\\)\\. Verified: the uid no longer resolves\\.$`))).toBeVisible({
      timeout: 15_000,
    });
    expect((await sandboxUser(sandbox, uid)).state).toBe('anonymized');
  });

  test('delete a user: the sandbox shows it deleted and the audit trail lists it', async ({ app, sandbox }) => {
    const uid = 'team/lead';
    await actOnUid(app, uid, 'Delete', { goOnIfUnseen: true });
    const dialog = app.getByRole('dialog', { name: `Delete user ${uid}` });
    await expect(dialog).toContainText('including all their contributions');
    await dialog.getByLabel('Type the uid to confirm').fill(uid);
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await runCountdown(app, dialog);
    await expect(app.getByRole('status').getByText(`User ${uid} deleted`, { exact: false })).toBeVisible({ timeout: 15_000 });
    expect((await sandboxUser(sandbox, uid)).state).toBe('deleted');

    await app.getByRole('tab', { name: 'Audit trail' }).click();
    const row = app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: uid });
    await expect(row.first()).toContainText('Delete');
    await expect(row.first()).toContainText('Done');
  });

  test('cancel during the countdown sends nothing to the service', async ({ app, sandbox }) => {
    const uid = 'bob+news@example.org';
    const erasureCalls: string[] = [];
    app.on('request', (request) => {
      if (new URL(request.url()).pathname === '/bridge/users.erase') erasureCalls.push(request.url());
    });
    await actOnUid(app, uid, 'Delete', { goOnIfUnseen: true });
    const dialog = app.getByRole('dialog', { name: `Delete user ${uid}` });
    await dialog.getByLabel('Type the uid to confirm').fill(uid);
    const before = (await stats(sandbox.url)).apiRequests;
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const timer = dialog.getByRole('timer');
    await expect(timer).toContainText(`Sending in ${COUNTDOWN_SECONDS} s`);
    await app.clock.runFor(1000);
    await expect(timer).toContainText(`Sending in ${COUNTDOWN_SECONDS - 1} s`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByText('Cancelled: nothing was sent to the service.')).toBeVisible();
    // Outlast the whole countdown, a second at a time: a cancelled timer that still fired would send, or count on.
    for (let second = 0; second <= COUNTDOWN_SECONDS; second += 1) await app.clock.runFor(1000);
    await expect(timer).toBeHidden();
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeEnabled();
    expect(erasureCalls).toEqual([]);
    expect((await stats(sandbox.url)).apiRequests).toBe(before);
    expect((await sandboxUser(sandbox, uid)).state).toBe('active');
  });

  test('copy the uid from the dialog into the confirmation: a uid with spaces matches, and a pasted ␣ is called out for what it is', async ({ app, host }, testInfo) => {
    const uid = 'jean dupont';
    await app.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.origin });
    await app.getByRole('table', { name: 'Users on page 1' }).getByRole('button', { name: `Delete ${uid}` }).click();
    const dialog = app.getByRole('dialog', { name: 'Delete user jean␣dupont' });
    const typed = dialog.getByLabel('Type the uid to confirm');
    await expect(typed).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    const clipboard = () => app.evaluate(() => navigator.clipboard.readText());

    // Selecting the uid as drawn (jean␣dupont) and copying it gives the uid itself.
    await dialog.locator('.erasure-uid [data-uid-box]').selectText();
    await app.keyboard.press('ControlOrMeta+C');
    expect(await clipboard()).toBe(uid);
    await typed.focus();
    await app.keyboard.press('ControlOrMeta+V');
    await expect(typed).toHaveValue(uid);
    await expect(dialog).toContainText('✓ Matches the uid');
    await expect(confirm).toBeEnabled();

    // The Copy uid button too.
    await typed.fill('');
    await app.evaluate(() => navigator.clipboard.writeText('something else'));
    await dialog.getByRole('button', { name: 'Copy uid' }).click();
    expect(await clipboard()).toBe(uid);
    await typed.focus();
    await app.keyboard.press('ControlOrMeta+V');
    await expect(typed).toHaveValue(uid);
    await expect(confirm).toBeEnabled();

    // What copying the drawn sign gave before: said exactly, not "does not match yet".
    await typed.fill('jean␣dupont');
    await expect(confirm).toBeDisabled();
    await expect(dialog).toContainText('Does not match, though it looks the same: at character 5 you have the sign “␣”, which only stands for the character “space” (U+0020). Use “Copy uid” and paste here.');
    await typed.fill('jean\u00a0dupont');
    await expect(dialog).toContainText('at character 5 you have the character “no-break space” (U+00A0) where the uid has the character “space” (U+0020)');
    await photograph(app, testInfo, 'erasure-invisible-mismatch');
  });

  test('after an unknown outcome the dialog is disarmed: the typed uid gone, no Confirm, the next step is to look the user up; it fits at both sizes, in English and French', async ({ app, sandbox }, testInfo) => {
    const uid = 'jean dupont';
    // The service answers 200 {"success": false}: the act may or may not have happened.
    sandbox.setVariants({ erasureResponse: 'success-false' });
    let clockInstalled = false;
    const erase = async (words: { delete: string; title: string; typeUid: string; confirm: string; sending: (s: number) => string }) => {
      await app.getByRole('table').first().getByRole('button', { name: `${words.delete} ${uid}`, exact: true }).click();
      const dialog = app.getByRole('dialog', { name: words.title });
      await dialog.getByLabel(words.typeUid).fill(uid);
      if (clockInstalled) await app.clock.pauseAt((await app.evaluate(() => Date.now())) + 60_000);
      else await holdPageClock(app);
      clockInstalled = true;
      await dialog.getByRole('button', { name: words.confirm }).click();
      for (let seconds = COUNTDOWN_SECONDS; seconds >= 1; seconds -= 1) {
        await expect(dialog.getByRole('timer')).toContainText(words.sending(seconds));
        await app.clock.runFor(1000);
      }
      await app.clock.resume();
      await expect(dialog.getByRole('alert')).toBeVisible({ timeout: 15_000 });
      return dialog;
    };

    const dialog = await erase({ delete: 'Delete', title: 'Delete user jean␣dupont', typeUid: 'Type the uid to confirm', confirm: 'Confirm', sending: (s) => `Sending in ${s} s` });
    await expect(dialog.getByRole('alert')).toContainText('Outcome: Unknown');
    await expect(dialog).toContainText('Check the user before anything else');
    await expect(dialog.getByLabel('Type the uid to confirm')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Look it up' })).toBeFocused();
    await expectFitsAndPhotograph(app, dialog, testInfo, 'erasure-unknown-disarmed');

    // "Look it up": the user is read on a list read now, and is still there (the service changed nothing).
    await dialog.getByRole('button', { name: 'Look it up' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.getByRole('list', { name: `People matching “${uid}”` }).getByRole('button', { name: /^Open / })).toHaveCount(1, { timeout: 15_000 });
    expect((await sandboxUser(sandbox, uid)).state).toBe('active');

    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    const dialogFr = await erase({ delete: 'Supprimer', title: 'Supprimer l’utilisateur jean␣dupont', typeUid: 'Saisissez l’uid pour confirmer', confirm: 'Confirmer', sending: (s) => `Envoi dans ${s} s` });
    await expect(dialogFr.getByRole('alert')).toContainText('Inconnu');
    await expect(dialogFr.getByRole('button', { name: 'Confirmer' })).toHaveCount(0);
    await expect(dialogFr.getByRole('button', { name: 'Le rechercher' })).toBeVisible();
    await expectFitsAndPhotograph(app, dialogFr, testInfo, 'erasure-unknown-disarmed-fr');
  });
});

/** The dialog shows all it says without scrolling, at 1360×850 and 1024×700, light and dark: photographed each way. */
async function expectFitsAndPhotograph(page: Page, dialog: Locator, testInfo: TestInfo, name: string): Promise<void> {
  await photograph(page, testInfo, name, {
    atEachSize: (size) => expect.poll(() => dialog.evaluate((element) => element.scrollHeight - element.clientHeight), { message: `the dialog scrolls at ${size.width}×${size.height}` }).toBeLessThanOrEqual(0),
    restoreSize: true,
  });
}
