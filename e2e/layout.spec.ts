import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createSessionCredentialStore } from '../core/credential-store';
import { startWebHost } from '../web-host/web-host';
import { test, expect, createSandboxUser, uniqueName, waitForConsole, type BridgeCaller } from './fixtures';
import { brokenUids, coveredByNotices, cutTexts, scrollViewTo, sidewaysScroll, unreachableScrollBoxes } from './layout-measure';
import { anonymiseThroughTheBridge, closedPort, finishedBatch } from './sandbox-helpers';
import { anonymiseThroughTheDialog } from './support';

/**
 * Screens that fit: what an operator sees at 1024×700 and 1360×850, measured in the page — the height the
 * pinned chrome takes, whether a dialog shows its fields and its confirm button without scrolling, how much
 * of a users row the actions take, whether a reference or a uid is cut where it matters, and whether the
 * kept notices cover what they talk about.
 */

const SIZES = [
  { width: 1024, height: 700 },
  { width: 1360, height: 850 },
] as const;
const SMALL = SIZES[0];

/** The batch these tests finish: the last five seeded uids of the form user-NNNNNN. */
const lastFiveNumberedUids = (uids: (string | null)[]) => uids.filter((uid): uid is string => uid !== null && /^user-\d+$/.test(uid)).slice(-5);

/**
 * Saves a profile the console calls live (https on an IPv4-mapped loopback address: not loopback by the
 * console's rule, yet nothing leaves this computer), makes it active and reloads the page.
 */
async function activateLiveProfile(app: Page, bridge: BridgeCaller): Promise<{ id: string; name: string }> {
  const name = uniqueName('E2E live');
  const saved = await bridge('profiles.save', { name, baseUrl: `https://[::ffff:127.0.0.1]:${await closedPort()}`, applicationName: 'city-portal', apiKey: 'live-key-e2e', apiSecret: 'live-secret-e2e' });
  if (!saved.ok) throw new Error(saved.error.message);
  const active = await bridge('profiles.setActive', { id: saved.value.id });
  if (!active.ok) throw new Error(active.error.message);
  await app.reload();
  await waitForConsole(app);
  await expect(app.getByRole('note').first()).toContainText('LIVE DATA');
  return { id: saved.value.id, name };
}

/** Bottom edge, in CSS pixels from the top of the viewport, of the lowest of these elements. */
async function bottomOf(...locators: Locator[]): Promise<number> {
  let bottom = 0;
  for (const locator of locators) {
    const box = await locator.boundingBox();
    if (!box) throw new Error(`${locator.toString()} is not on the screen`);
    bottom = Math.max(bottom, box.y + box.height);
  }
  return bottom;
}

/**
 * The dialog as the operator meets it: wholly inside the window, nothing to scroll, and each of its fields
 * (inputs, checkboxes) and its confirm button wholly in view.
 */
async function expectDialogFits(page: Page, dialog: Locator, confirm: Locator, label: string): Promise<void> {
  await expect(dialog).toBeVisible();
  await expect(confirm).toBeVisible();
  const size = page.viewportSize()!;
  const where = `${label} at ${size.width}×${size.height}`;
  const box = await dialog.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top, bottom: rect.bottom, left: rect.left, right: rect.right, overflow: element.scrollHeight - element.clientHeight };
  });
  expect(box.overflow, `${where}: the dialog needs ${box.overflow}px of scrolling`).toBeLessThanOrEqual(1);
  expect(box.top, `${where}: the dialog starts above the window`).toBeGreaterThanOrEqual(0);
  expect(box.bottom, `${where}: the dialog ends below the window`).toBeLessThanOrEqual(size.height);
  const fields = dialog.locator('input:not([type=hidden]), textarea, select');
  for (const field of await fields.all()) await expect(field, `${where}: a field is out of view`).toBeInViewport({ ratio: 1 });
  await expect(confirm, `${where}: the confirm button is out of view`).toBeInViewport({ ratio: 1 });
}

/** Runs the check at both sizes, reopening nothing: the dialog reflows when the window changes. */
async function expectDialogFitsAtBothSizes(page: Page, dialog: Locator, confirm: Locator, label: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectDialogFits(page, dialog, confirm, label);
  }
}

/**
 * On a live profile nothing answers, so the console cannot say whom the uid belongs to: it stops reading the
 * list (Cancel) if it is still at it, then goes on anyway — the tallest form of the dialog follows.
 */
async function toTheCeremony(dialog: Locator, cancelRead: string, goOn: string): Promise<void> {
  const stop = dialog.getByRole('button', { name: cancelRead, exact: true });
  const onward = dialog.getByRole('button', { name: goOn, exact: true });
  await expect(stop.or(onward).first()).toBeVisible({ timeout: 20_000 });
  if (!(await onward.isVisible())) await stop.click();
  await onward.click();
}

/** A web host whose keychain cannot be used: credentials in memory, and the notice that says so. */
const withoutKeychain = test.extend({
  host: async ({ dataDir }, use) => {
    const host = await startWebHost({
      port: 0,
      dataDir,
      bundledSandbox: false,
      staticDir: 'dist/renderer',
      version: '0.0.0-e2e',
      openCredentials: async () => ({ store: createSessionCredentialStore(), problem: 'No Secret Service provider was found.' }),
    });
    await use(host);
    await host.close();
  },
});

withoutKeychain.describe('the pinned chrome at 1024×700', () => {
  withoutKeychain('the keychain notice folds to one line once read and opens again; live band and header take at most 120 px', async ({ app, bridge }) => {
    await app.setViewportSize(SMALL);
    const live = await activateLiveProfile(app, bridge);
    try {
      const notice = app.getByRole('status').filter({ hasText: 'The system keychain is not available.' });
      await expect(notice).toContainText('No keychain provider answers.');
      const band = app.getByRole('note').first();
      const header = [band, app.getByRole('heading', { name: 'Privacy Desk', level: 1 }), app.getByRole('combobox', { name: 'Active profile' }), app.getByRole('combobox', { name: 'Language' }), app.getByRole('combobox', { name: 'Theme' })];
      expect(await bottomOf(...header), 'the live band and the header together').toBeLessThanOrEqual(120);

      // Read: folded to a single line that still says what it is, and opens again.
      await notice.getByRole('button', { name: 'Got it' }).click();
      await expect(notice).toContainText('The system keychain is not available.');
      await expect(notice.getByText('No keychain provider answers.')).toBeHidden();
      const folded = await notice.boundingBox();
      expect(folded?.height ?? Infinity, 'the folded keychain notice').toBeLessThanOrEqual(34);
      const tabs = app.getByRole('tablist', { name: 'Main' });
      expect(await bottomOf(tabs), 'everything pinned above the view (live band, header, folded notice, tabs)').toBeLessThanOrEqual(200);

      // Still folded after a reload (the same problem), and reachable: Details opens it whole.
      await app.reload();
      await waitForConsole(app);
      await expect(notice.getByText('No keychain provider answers.')).toBeHidden();
      await notice.getByRole('button', { name: 'Details' }).click();
      await expect(notice.getByText('No keychain provider answers.')).toBeVisible();
    } finally {
      await bridge('profiles.remove', { id: live.id, confirmName: live.name }).catch(() => undefined);
    }
  });
});

test.describe('every dialog shows its fields and its confirm button without scrolling', () => {
  test('profile form, delete profile and the erasure on a sandbox profile', async ({ app, profile }) => {
    await app.getByRole('tab', { name: 'Profiles' }).click();
    await app.getByRole('button', { name: 'Add profile' }).click();
    const form = app.getByRole('dialog', { name: 'Add a profile' });
    await expectDialogFitsAtBothSizes(app, form, form.getByRole('button', { name: 'Save profile' }), 'the profile form');
    // With every field's error showing, the tallest the form gets.
    await form.getByRole('button', { name: 'Save profile' }).click();
    await expect(form.getByText('Correct the highlighted fields.')).toBeVisible();
    await expectDialogFitsAtBothSizes(app, form, form.getByRole('button', { name: 'Save profile' }), 'the profile form with its errors');
    await form.getByRole('button', { name: 'Cancel' }).click();

    await app.getByRole('article', { name: profile.name }).getByRole('button', { name: 'Delete' }).click();
    const remove = app.getByRole('dialog', { name: `Delete profile “${profile.name}”?` });
    await expectDialogFitsAtBothSizes(app, remove, remove.getByRole('button', { name: 'Delete profile' }), 'delete profile');
    await remove.getByRole('button', { name: 'Cancel' }).click();

    await app.getByRole('tab', { name: 'Users' }).click();
    await app.getByRole('button', { name: 'Delete jean dupont', exact: true }).click();
    const erasure = app.getByRole('dialog', { name: /^Delete user jean.dupont$/ });
    await expect(erasure.getByRole('region', { name: /^Who this uid belongs to/ })).toBeVisible();
    await expectDialogFitsAtBothSizes(app, erasure, erasure.getByRole('button', { name: 'Confirm' }), 'the erasure on a sandbox profile');
  });

  test('on a live profile: the switch, the erasure (in English and French), the logout and the batch confirmation', async ({ app, bridge, profile }) => {
    const live = await activateLiveProfile(app, bridge);
    try {
      const box = app.getByRole('region', { name: 'Act on a uid' });
      await box.getByLabel('uid', { exact: true }).fill('jean dupont');
      await box.getByRole('button', { name: 'Delete', exact: true }).click();
      const erasure = app.getByRole('dialog', { name: /^Delete user jean.dupont$/ });
      // A uid the console has not seen is announced first; the ceremony (the tallest dialog) follows.
      await toTheCeremony(erasure, 'Cancel', 'Continue anyway');
      await expectDialogFitsAtBothSizes(app, erasure, erasure.getByRole('button', { name: 'Confirm' }), 'the erasure on a live profile');
      await erasure.getByRole('button', { name: 'Cancel' }).click();

      await app.getByLabel('Language').selectOption('fr');
      await app.getByRole('region', { name: 'Agir sur un uid' }).getByRole('button', { name: 'Supprimer', exact: true }).click();
      const erasureFr = app.getByRole('dialog', { name: /jean.dupont/ });
      await toTheCeremony(erasureFr, 'Annuler', 'Continuer quand même');
      await expectDialogFitsAtBothSizes(app, erasureFr, erasureFr.getByRole('button', { name: 'Confirmer' }), 'the erasure on a live profile, in French');
      await erasureFr.getByRole('button', { name: 'Annuler' }).click();
      await app.getByLabel('Langue').selectOption('en');

      await app.getByRole('tab', { name: 'Logout tester' }).click();
      await app.getByLabel('User uid').fill('jean dupont');
      await app.getByRole('button', { name: 'Send logout' }).click();
      const logout = app.getByRole('dialog', { name: 'Send a logout to live data?' });
      await expectDialogFitsAtBothSizes(app, logout, logout.getByRole('button', { name: 'Send to live data' }), 'the live logout confirmation');
      await logout.getByRole('button', { name: 'Cancel' }).click();

      // The batch confirmation is a card, not a dialog: its field and Start must fit together under the chrome.
      await app.getByRole('tab', { name: 'Batch' }).click();
      await app.getByLabel('uids to erase').fill('request-001@client.example\nrequest-002@client.example');
      const phrase = app.getByLabel('Type ANONYMISE 2 to confirm');
      const start = app.getByRole('button', { name: 'Start' });
      for (const size of SIZES) {
        await app.setViewportSize(size);
        await start.scrollIntoViewIfNeeded();
        const chromeBottom = await bottomOf(app.getByRole('tablist', { name: 'Main' }));
        const fieldBox = (await phrase.boundingBox())!;
        const startBox = (await start.boundingBox())!;
        expect(startBox.y + startBox.height, `the batch Start button at ${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
        expect(fieldBox.y, `the batch phrase field at ${size.width}×${size.height}, under the chrome`).toBeGreaterThanOrEqual(chromeBottom);
      }

      await app.getByRole('combobox', { name: 'Active profile' }).selectOption({ label: profile.name });
      await app.getByRole('combobox', { name: 'Active profile' }).selectOption({ label: live.name });
      const switchDialog = app.getByRole('dialog', { name: 'Switch to a live profile?' });
      await expectDialogFitsAtBothSizes(app, switchDialog, switchDialog.getByRole('button', { name: 'Switch to live data' }), 'the switch to a live profile');
    } finally {
      await bridge('profiles.remove', { id: live.id, confirmName: live.name }).catch(() => undefined);
    }
  });
});

test.describe('the users table', () => {
  test('names and e-mails get the room; the row actions are icon buttons that say their word on hover and focus', async ({ app }) => {
    const table = app.getByRole('table', { name: 'Users on page 1' });
    await expect(table.locator('tbody tr')).toHaveCount(25);
    for (const size of SIZES) {
      await app.setViewportSize(size);
      const where = `at ${size.width}×${size.height}`;
      const rows = await table.evaluate((element) => {
        const whole = (cell: Element) => {
          // The text's own width against the room its cell gives it: wider means cut.
          let text = 0;
          const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            text += range.getBoundingClientRect().width;
          }
          const style = getComputedStyle(cell);
          const room = cell.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          return text <= room + 1;
        };
        const headers = [...element.querySelectorAll('thead th')].map((th) => th.textContent?.trim().toLowerCase());
        const nameColumn = headers.indexOf('full name');
        return [...element.querySelectorAll('tbody tr')].map((row) => {
          const cells = [...row.querySelectorAll('td')];
          return { name: cells[nameColumn]?.textContent ?? '', nameWhole: whole(cells[nameColumn]!), actions: cells.at(-1)!.getBoundingClientRect().width, row: row.getBoundingClientRect().width };
        });
      });
      for (const row of rows) {
        expect(row.actions / row.row, `${where}: the actions of ${row.name} take ${Math.round((100 * row.actions) / row.row)}% of the row`).toBeLessThanOrEqual(0.13);
        expect(row.nameWhole, `${where}: the name ${row.name} is cut`).toBe(true);
      }
    }

    // Each icon says its word on hover and on keyboard focus; its accessible name says which user.
    const anonymise = app.getByRole('button', { name: 'Anonymise jean dupont', exact: true });
    const remove = app.getByRole('button', { name: 'Delete jean dupont', exact: true });
    await expect(anonymise.getByText('Anonymise', { exact: true })).toBeHidden();
    await anonymise.hover();
    await expect(anonymise.getByText('Anonymise', { exact: true })).toBeVisible();
    await anonymise.focus();
    await app.keyboard.press('Tab');
    await expect(remove).toBeFocused();
    await expect(remove.getByText('Delete', { exact: true })).toBeVisible();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('dialog', { name: /^Delete user jean.dupont$/ })).toBeVisible();
  });
});

test.describe('the users table fits', () => {
  test('at both sizes and in both languages: no sideways scroll, headers whole, uids, names and e-mails never cut, each uid on one line', async ({ app }) => {
    await app.getByLabel('Users per page').selectOption('100');
    const table = app.getByRole('table', { name: 'Users on page 1' });
    // Sixty users: e-mail-like uids, long names and e-mails, and one uid of 1,024 characters (which scrolls in its own box).
    await expect(table.locator('tbody tr')).toHaveCount(60);
    const problems: string[] = [];
    for (const language of ['en', 'fr'] as const) {
      if (language === 'fr') {
        await app.getByLabel('Language').selectOption('fr');
        await expect(app.locator('html')).toHaveAttribute('lang', 'fr');
      }
      const shown = app.getByRole('table', { name: language === 'fr' ? 'Utilisateurs de la page 1' : 'Users on page 1' });
      for (const size of SIZES) {
        await app.setViewportSize(size);
        const where = `${language} at ${size.width}×${size.height}`;
        const scroll = await sidewaysScroll(shown.locator('xpath=..'));
        if (scroll > 0) problems.push(`${where}: the table scrolls ${scroll}px sideways`);
        for (const text of await cutTexts(shown)) problems.push(`${where}: cut “${text}”`);
        for (const uid of await brokenUids(shown)) problems.push(`${where}: the uid “${uid}” breaks across lines`);
        for (const text of await unreachableScrollBoxes(shown)) problems.push(`${where}: “${text}” scrolls but the keyboard cannot reach it`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

test.describe('the audit table', () => {
  test('two references that differ only at their end never look the same', async ({ app, bridge, profile }) => {
    const references = ['DPO-2026/ACCESS-AND-ERASURE-REQUESTS/CASE-000118-A', 'DPO-2026/ACCESS-AND-ERASURE-REQUESTS/CASE-000118-B'];
    const listed = await bridge('users.list', { profileId: profile.id, page: 1, perPage: 25 });
    if (!listed.ok) throw new Error(listed.error.message);
    const uids = listed.value.users.map((user) => user.uid).filter((uid): uid is string => uid !== null && /^user-\d+$/.test(uid));
    for (const [index, reference] of references.entries()) {
      const uid = uids[index]!;
      const answer = await bridge('users.erase', { profileId: profile.id, action: 'anonymize', uid, confirmUid: uid, reference });
      if (!answer.ok) throw new Error(answer.error.message);
    }
    await app.getByRole('tab', { name: 'Audit trail' }).click();
    for (const size of SIZES) {
      await app.setViewportSize(size);
      for (const reference of references) {
        const cell = app.getByRole('cell').filter({ hasText: reference }).first();
        await expect(cell).toBeVisible();
        // The last characters (where the two differ) are drawn inside every box that clips them.
        const shown = await cell.evaluate((element, text) => {
          const nodes: Text[] = [];
          const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const parent = node.parentElement!;
            // Drawn text only: not the copy kept for screen readers (clipped to nothing).
            if (node.textContent && parent.getClientRects().length > 0 && getComputedStyle(parent).clip === 'auto') nodes.push(node as Text);
          }
          const last = nodes.at(-1);
          if (!last || !text.endsWith(last.textContent!)) return false;
          const range = document.createRange();
          range.setStart(last, last.length - 2);
          range.setEnd(last, last.length);
          const drawn = range.getBoundingClientRect();
          for (let box: Element | null = last.parentElement; box && box !== element.parentElement; box = box.parentElement) {
            if (getComputedStyle(box).overflow === 'visible') continue;
            const clip = box.getBoundingClientRect();
            if (drawn.left < clip.left - 0.5 || drawn.right > clip.right + 0.5) return false;
          }
          return true;
        }, reference);
        expect(shown, `${reference} at ${size.width}×${size.height}: its end is cut off`).toBe(true);
      }
    }
  });

  test('at both sizes and in both languages: no sideways scroll, headers, outcomes, operations and Receipt whole, uids never cut', async ({ app, bridge, profile, sandbox, dataDir }) => {
    // Acts of every kind the table draws: an erasure, a deliberate test, an unknown outcome (a 200 that says it
    // failed), a batch with its summary, a long e-mail-like uid, and rows the chain no longer vouches for.
    const listed = await bridge('users.list', { profileId: profile.id, page: 1, perPage: 60 });
    if (!listed.ok) throw new Error(listed.error.message);
    const longUid = listed.value.users.map((user) => user.uid ?? '').filter((uid) => /^[a-z.]+\.\d+@[a-z.]+$/.test(uid)).sort((a, b) => b.length - a.length)[0]!;
    await anonymiseThroughTheBridge(bridge, profile.id, longUid, 'REQ-FIT-1');
    await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: { negativeCase: 'wrong-aud' } });
    sandbox.setVariants({ logoutSuccessBody: 'success-false' });
    await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: {} });
    sandbox.setVariants({ logoutSuccessBody: 'json' });
    await finishedBatch(bridge, profile.id, 'REQ-FIT-2', lastFiveNumberedUids);
    // The first act's reference changed in the file: the chain breaks there, and every act from it on is marked.
    const auditPath = join(dataDir, 'audit.jsonl');
    await writeFile(auditPath, (await readFile(auditPath, 'utf8')).replace('"REQ-FIT-1"', '"REQ-FIT-9"'));

    await app.getByRole('tab', { name: 'Audit trail' }).click();
    await expect(app.locator('[data-vouching="after-break"]').first()).toBeVisible();
    const problems: string[] = [];
    for (const language of ['en', 'fr'] as const) {
      if (language === 'fr') {
        await app.getByLabel('Language').selectOption('fr');
        await expect(app.locator('html')).toHaveAttribute('lang', 'fr');
      }
      const grid = app.getByRole('table', { name: language === 'fr' ? 'Entrées du journal d’audit' : 'Audit trail entries' });
      await expect(grid.getByRole('row').nth(1)).toBeVisible();
      for (const size of SIZES) {
        await app.setViewportSize(size);
        const where = `${language} at ${size.width}×${size.height}`;
        const scroll = await sidewaysScroll(grid);
        if (scroll > 0) problems.push(`${where}: the table scrolls ${scroll}px sideways`);
        // A reference keeps both ends when it is cut (its own test); a request id and a profile are whole in their title, the export and the receipt.
        for (const text of await cutTexts(grid, ['.middle-clip', '[role="cell"].audit-grid__cell--requestId', '[role="cell"].audit-grid__cell--profile'])) problems.push(`${where}: cut “${text}”`);
        for (const uid of await brokenUids(grid)) problems.push(`${where}: the uid “${uid}” breaks across lines`);
        for (const text of await unreachableScrollBoxes(grid)) problems.push(`${where}: “${text}” scrolls but the keyboard cannot reach it`);
        const clipped = await grid.evaluate((box) => {
          const frame = box.getBoundingClientRect();
          return [...box.querySelectorAll('button')].filter((button) => {
            const rect = button.getBoundingClientRect();
            return rect.bottom > frame.top && rect.top < frame.bottom && (rect.left < frame.left || rect.right > frame.left + box.clientWidth);
          }).length;
        });
        if (clipped > 0) problems.push(`${where}: ${clipped} row buttons are clipped`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

/** How many lines each drawing of the uid takes inside the element (an element of its own, or inside a text). */
async function linesOfUid(element: Locator, uid: string): Promise<number[]> {
  return element.evaluate((root, wanted) => {
    const lineCount = (range: Range) => new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top / 4))).size;
    const counts: number[] = [];
    const drawn = (element: Element) => element.getClientRects().length > 0 && getComputedStyle(element).clip === 'auto';
    // An element holding exactly the uid (a drawn uid, a highlighted one split into marks)…
    const holders = [...root.querySelectorAll('*')].filter((element) => element.textContent === wanted && ![...element.children].some((child) => child.textContent === wanted) && drawn(element));
    for (const holder of holders) {
      const range = document.createRange();
      range.selectNodeContents(holder);
      counts.push(lineCount(range));
    }
    // …or the uid inside a longer text.
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent!.indexOf(wanted);
      if (at < 0 || holders.some((holder) => holder.contains(node)) || !drawn(node.parentElement!)) continue;
      const range = document.createRange();
      range.setStart(node, at);
      range.setEnd(node, at + wanted.length);
      counts.push(lineCount(range));
    }
    return counts;
  }, uid);
}

async function expectUidWhole(element: Locator, uid: string, where: string): Promise<void> {
  await expect.poll(async () => (await linesOfUid(element, uid)).length, { message: `${where}: the uid is not shown` }).toBeGreaterThan(0);
  const lines = await linesOfUid(element, uid);
  expect(lines, `${where}: the uid breaks across lines`).toEqual(lines.map(() => 1));
}

const SCROLLS = [
  { at: 0, name: 'top' },
  { at: 0.5, name: 'middle' },
  { at: 1, name: 'bottom' },
] as const;

/**
 * The notices lie over nothing in the view: no visible interactive element and no table row shares any area
 * with them, at both sizes, with the kept notices expanded and collapsed, at the top, middle and bottom of the
 * view's scroll.
 */
async function expectNothingUnderNotices(app: Page, view: string): Promise<void> {
  const notices = app.getByRole('region', { name: 'Notifications' });
  const problems: string[] = [];
  for (const size of SIZES) {
    await app.setViewportSize(size);
    for (const state of ['expanded', 'collapsed'] as const) {
      const toggle = notices.getByRole('button', { name: state === 'expanded' ? 'Expand' : 'Collapse', exact: true });
      if (await toggle.isVisible()) await toggle.click();
      await expect(notices.getByRole('button', { name: state === 'expanded' ? 'Collapse' : 'Expand', exact: true })).toBeVisible();
      for (const scroll of SCROLLS) {
        await scrollViewTo(app, scroll.at);
        const covered = await coveredByNotices(notices);
        if (covered.length > 0) problems.push(`${view} at ${size.width}×${size.height}, notices ${state}, scrolled to the ${scroll.name}: over ${covered.join(', ')}`);
      }
    }
    await notices.getByRole('button', { name: 'Expand', exact: true }).click();
  }
  await scrollViewTo(app, 0);
  expect(problems, problems.join('\n')).toEqual([]);
}

test.describe('kept notices', () => {
  test('notices never lie over the view: users, batch results, the batch form and the audit trail, at both sizes, expanded and collapsed, wherever the view is scrolled', async ({ app, bridge, profile }) => {
    test.slow(true, 'four views, each measured at two sizes, two states and three scroll positions');
    const notices = app.getByRole('region', { name: 'Notifications' });
    await app.getByLabel('Users per page').selectOption('100');
    await expect(app.getByRole('table', { name: 'Users on page 1' }).locator('tbody tr')).toHaveCount(60);
    // An erasure with a reference: its kept notice offers the receipt.
    await anonymiseThroughTheDialog(app, 'alice@example.org', 'REQ-NOTICE-1');
    await expect(notices.getByText(/anonymised \(request id/)).toBeVisible();
    await expectNothingUnderNotices(app, 'the users table');
    // A user's detail panel ends above the notices too: its last lines are never behind them.
    await app.getByRole('button', { name: 'Show details of jean dupont' }).click();
    const panel = app.getByRole('complementary', { name: 'User details' });
    for (const size of SIZES) {
      await app.setViewportSize(size);
      await panel.scrollIntoViewIfNeeded();
      const [panelBottom, viewBottom] = await panel.evaluate((box) => [box.getBoundingClientRect().bottom, box.closest('main')!.getBoundingClientRect().bottom]);
      expect(panelBottom, `at ${size.width}×${size.height}: the detail panel runs under the notices`).toBeLessThanOrEqual(viewBottom + 1);
    }
    await panel.getByRole('button', { name: 'Close details' }).click();

    // A finished batch, its results exported: a second kept notice.
    await finishedBatch(bridge, profile.id, 'REQ-NOTICE-2', lastFiveNumberedUids);
    await app.getByRole('tab', { name: 'Batch' }).click();
    await app.getByRole('button', { name: /^Results of the batch from / }).first().click();
    await expect(app.getByRole('table', { name: /^Results of batch / }).locator('tbody tr')).toHaveCount(5);
    await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export results (CSV)' }).click()]);
    await expect(notices.getByText(/^Results saved as /)).toBeVisible();
    await expectNothingUnderNotices(app, 'the batch results');

    // The batch form with its preview: the confirmation heading and the reference field.
    await app.getByRole('button', { name: 'Close', exact: true }).click();
    await app.getByLabel('uids to erase').fill(Array.from({ length: 12 }, (_, index) => `request-${index + 1}@client.example`).join('\n'));
    await expect(app.getByRole('heading', { name: '3. Confirm and start' })).toBeVisible();
    await expectNothingUnderNotices(app, 'the batch form');

    // An act's receipt from the audit trail: its notice carries the chain head hash, drawn whole and wrapped.
    await app.getByRole('tab', { name: 'Audit trail' }).click();
    const grid = app.getByRole('table', { name: 'Audit trail entries' });
    await Promise.all([app.waitForEvent('download'), grid.getByRole('button', { name: /^Receipt — / }).first().click()]);
    const receipt = notices.getByText(/^Receipt saved as /);
    await expect(receipt).toBeVisible();
    await expectNothingUnderNotices(app, 'the audit trail');
    for (const size of SIZES) {
      await app.setViewportSize(size);
      const where = `at ${size.width}×${size.height}`;
      expect(await notices.evaluate((dock) => [dock, ...dock.querySelectorAll('*')].filter((box) => box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== 'visible').length), `${where}: the notices scroll sideways`).toBe(0);
      // Several kept notices may scroll up and down inside the bar: the receipt's is brought into view, as an operator would.
      await receipt.scrollIntoViewIfNeeded();
      const hash = (await receipt.textContent())!.match(/[0-9a-f]{64}/)![0];
      const drawnWhole = await notices.evaluate((dock, head) => {
        const walker = document.createTreeWalker(dock, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent!.indexOf(head);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + head.length);
          const frame = dock.getBoundingClientRect();
          return [...range.getClientRects()].every((rect) => rect.left >= frame.left && rect.right <= frame.right && rect.top >= frame.top && rect.bottom <= Math.min(frame.bottom, innerHeight));
        }
        return false;
      }, hash);
      expect(drawnWhole, `${where}: the chain head hash is cut`).toBe(true);
    }
  });
});

test.describe('long uids', () => {
  test('a uid is never broken inside itself: it wraps whole or scrolls, in every table and panel that shows it', async ({ app, bridge, profile, sandbox }) => {
    const uid = 'a.rather.long.uid.from.an.older.import@customer-accounts.debate-client.example.org';
    await createSandboxUser(sandbox, uid, { full_name: 'Long Uid Person', email: 'long.uid@example.org' });
    await app.setViewportSize(SMALL);
    await app.reload();
    await waitForConsole(app);
    await app.getByLabel('Users per page').selectOption('100');
    await expect(app.getByRole('table', { name: 'Users on page 1' }).locator('tbody tr')).toHaveCount(61);

    const finder = app.getByRole('search');
    await finder.getByLabel('Find a person — every page').fill('customer-accounts');
    await finder.getByRole('button', { name: 'Find' }).click();
    await expectUidWhole(app.getByRole('list', { name: /People matching/ }), uid, 'find a person');

    await app.getByRole('button', { name: `Show details of ${uid}` }).click();
    await expectUidWhole(app.getByRole('complementary', { name: 'User details' }), uid, 'the detail panel');
    await anonymiseThroughTheDialog(app, uid, 'REQ-LONG-1', { inDialog: (dialog) => expectUidWhole(dialog, uid, 'the erasure dialog') });
    await expectUidWhole(app.getByRole('region', { name: 'Notifications' }), uid, 'the kept notice');
    await app.getByRole('button', { name: 'Close details' }).click();

    await app.getByRole('tab', { name: 'Audit trail' }).click();
    await expectUidWhole(app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: 'REQ-LONG-1' }).first(), uid, 'the audit trail');

    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill(uid);
    await app.getByRole('button', { name: 'Send logout' }).click();
    await expectUidWhole(app.getByRole('region', { name: 'This session’s tests' }), uid, 'the logout history');

    const preview = await bridge('batch.preview', { text: `${uid}\nuser-000002`, sourceName: 'requests.txt' });
    if (!preview.ok) throw new Error(preview.error.message);
    const started = await bridge('batch.start', { draftId: preview.value.draftId, profileId: profile.id, action: 'anonymize', reference: 'REQ-LONG-2', confirmation: 'ANONYMISE 2' });
    if (!started.ok) throw new Error(started.error.message);
    await expect
      .poll(async () => {
        const job = await bridge('batch.get', { batchId: started.value.batchId });
        return job.ok ? job.value.job?.state : undefined;
      })
      .toBe('finished');
    await app.getByRole('tab', { name: 'Batch' }).click();
    await app.getByRole('button', { name: /^Results of the batch from / }).first().click();
    await expectUidWhole(app.getByRole('table', { name: /^Results of batch / }), uid, 'the batch results');
  });
});
