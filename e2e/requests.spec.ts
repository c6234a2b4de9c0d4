import type { Page, TestInfo } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { test, expect, createSandboxUser, sandboxUser, waitForConsole } from './fixtures';
import { seedRegister } from './register-helpers';
import { expectNoSeriousAxeViolations, holdPageClock, photograph, runCountdown } from './support';

async function chooseLanguage(page: Page, language: 'en' | 'fr'): Promise<void> {
  await page.getByRole('combobox', { name: /^(Language|Langue)$/ }).selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/** The view photographed at both sizes in both themes, then scanned with axe. */
async function photographAndScan(page: Page, testInfo: TestInfo, name: string, scrollTo?: string): Promise<void> {
  await photograph(page, testInfo, name, { awaitTheme: true, restoreSize: true, ...(scrollTo ? { scrollTo } : {}) });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await expectNoSeriousAxeViolations(page, testInfo, name);
}

test.describe('the request register in the console', () => {
  test('a DPO registers a request from a ticket, finds the person, anonymises them through the dialog (linked), closes it and downloads the answer pack', async ({ app, bridge, profile, sandbox }, testInfo) => {
    test.slow(true, 'the whole flow, then screenshots in two languages, two sizes and two themes');
    await createSandboxUser(sandbox, 'mlefevre-1988', { full_name: 'Martine Lefèvre', email: 'martine.lefevre@example.net' });
    await seedRegister(bridge, profile.id);
    // Registered from outside the window (as the CLI would): the tab's count is read when the console opens.
    await app.reload();
    await waitForConsole(app);

    const tab = app.getByRole('tab', { name: /^Requests/ });
    await expect(tab).toContainText('⚠ 2');
    await tab.click();
    const rows = app.getByTestId('request-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText(/Overdue by \d+ days?/);
    await expect(rows.nth(1)).toContainText(/\d+ days? left|Due today/);

    // The ticket as it came; the uid the person gave is not quite theirs, so the DPO finds them.
    await app.getByRole('button', { name: 'New request' }).click();
    const ticket = 'Helpdesk case from the web form\nSubject: Delete my data\n\nPlease erase my account (martine) from the debate space.';
    await app.getByLabel('The ticket’s text').fill(ticket);
    await expect(app.getByLabel('Received')).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    await app.getByLabel('uids concerned').fill('martine');
    await app.getByLabel('Requester’s contact (optional)').fill('martine.lefevre@example.net');
    await photographAndScan(app, testInfo, 'request-flow-new');
    await app.getByRole('button', { name: 'Register the request' }).click();
    const heading = app.getByRole('heading', { level: 2, name: /^REQ-\d{4}-\d{4}$/ });
    await expect(heading).toBeVisible();
    const requestId = (await heading.textContent())!;
    // The contact is encrypted and hidden until asked for.
    await expect(app.getByText('martine.lefevre@example.net')).toHaveCount(0);
    await app.getByRole('button', { name: 'Show contact' }).click();
    await expect(app.getByTestId('requester-contact')).toHaveText('martine.lefevre@example.net');
    await app.getByRole('button', { name: 'Hide contact' }).click();

    await app.getByRole('button', { name: 'Find a person' }).click();
    const finder = app.getByRole('search');
    await finder.getByLabel('Find a person — every page').fill('lefevre');
    await finder.getByRole('button', { name: 'Find' }).click();
    await app.getByRole('button', { name: 'Open Martine Lefèvre' }).click({ timeout: 15_000 });
    const subject = app.getByTestId('request-subject').filter({ hasText: 'mlefevre-1988' });
    await expect(subject).toBeVisible();
    await app.getByRole('button', { name: 'Done finding' }).click();
    // The uid the ticket gave was not theirs: it leaves the request.
    await app.getByRole('button', { name: 'Remove martine from the request' }).click();
    await expect(app.getByTestId('request-subject')).toHaveCount(1);

    await subject.getByRole('button', { name: 'Anonymise…' }).click();
    const dialog = app.getByRole('dialog', { name: 'Anonymise user mlefevre-1988' });
    await expect(dialog.getByLabel('Reference (optional)')).toHaveValue(requestId);
    await dialog.getByLabel('Type the uid to confirm').fill('mlefevre-1988');
    await holdPageClock(app);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await runCountdown(app, dialog);
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    expect((await sandboxUser(sandbox, 'mlefevre-1988')).state).toBe('anonymized');

    const timeline = app.getByTestId('request-timeline');
    await expect(timeline).toContainText('Anonymised mlefevre-1988');
    await expect(timeline).toContainText('done · verified gone');
    const linked = await bridge('requests.get', { id: requestId });
    if (!linked.ok) throw new Error(linked.error.message);
    expect(linked.value.links.actIds).toHaveLength(1);
    await photographAndScan(app, testInfo, 'request-flow-page');

    await app.getByRole('button', { name: 'Close as answered' }).click();
    await expect(timeline).toContainText('Answered and closed');
    const downloads: string[] = [];
    app.on('download', (download) => downloads.push(download.suggestedFilename()));
    const letterDownload = app.waitForEvent('download', (download) => download.suggestedFilename().endsWith('.txt'));
    await app.getByRole('button', { name: 'Download the answer pack' }).click();
    const letter = await letterDownload;
    expect(await readFile((await letter.path())!, 'utf8')).toContain(requestId);
    await expect.poll(() => downloads.some((name) => name.endsWith('.pdf'))).toBe(true);
    await photographAndScan(app, testInfo, 'request-flow-closed', 'answer-pack');
    // The notices of the act and the pack have been read: the views below are photographed without them.
    await app.getByRole('button', { name: 'Clear all' }).click();

    await app.getByRole('button', { name: /All requests/ }).click();
    await expect(rows).toHaveCount(3);
    await photographAndScan(app, testInfo, 'request-flow-list');

    await chooseLanguage(app, 'fr');
    await expect(app.getByRole('heading', { level: 2, name: 'Demandes' })).toBeVisible();
    await photographAndScan(app, testInfo, 'request-flow-list-fr');
    await rows.nth(0).getByRole('button').first().click();
    await expect(app.getByRole('heading', { level: 2, name: /^REQ-/ })).toBeVisible();
    await photographAndScan(app, testInfo, 'request-flow-page-fr');

    // The overdue request cannot be extended any more: the core's reason is shown, in the window's language.
    await app.getByRole('button', { name: 'Prolonger de deux mois…' }).click();
    await app.getByLabel('Pourquoi (demandes complexes ou nombreuses)').fill('Comptes nombreux');
    await app.getByRole('button', { name: 'Prolonger', exact: true }).click();
    const refusal = app.getByRole('alert');
    await expect(refusal).toContainText('La demande n’a pas été prolongée');
    await expect(refusal).toContainText('ne peut pas être prolongée');
    await photographAndScan(app, testInfo, 'request-flow-late-extension-fr', 'decision-error');
  });
});
