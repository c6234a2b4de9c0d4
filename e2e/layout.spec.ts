import { createServer } from 'node:net';
import type { Locator, Page } from '@playwright/test';
import { createSessionCredentialStore } from '../core/credential-store';
import { startWebHost } from '../web-host/web-host';
import { test, expect, createSandboxUser, uniqueName, waitForConsole, type BridgeCaller } from './fixtures';
import { holdPageClock, runCountdown } from './support';

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

/** A port on this computer that nothing listens on: a "live" profile on it can never reach anything. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

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

/** True when the two boxes share some area. */
async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [first, second] = [await a.boundingBox(), await b.boundingBox()];
  if (!first || !second) return false;
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}

/** Anonymises the uid through its row's button and the dialog, as an operator would; the outcome's notice stays. */
async function anonymiseThroughTheDialog(app: Page, uid: string, reference: string, inDialog?: (dialog: Locator) => Promise<void>): Promise<void> {
  await app.getByRole('button', { name: `Anonymise ${uid}`, exact: true }).first().click();
  const dialog = app.getByRole('dialog', { name: `Anonymise user ${uid}` });
  await expect(dialog.getByLabel('Type the uid to confirm')).toBeVisible();
  await inDialog?.(dialog);
  await dialog.getByLabel('Type the uid to confirm').fill(uid);
  await dialog.getByLabel('Reference').fill(reference);
  await holdPageClock(app);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await runCountdown(app, dialog);
  await expect(dialog).toBeHidden({ timeout: 15_000 });
}

test.describe('kept notices', () => {
  test('the kept notice covers neither the last users nor the last acts of the audit trail', async ({ app }) => {
    await app.setViewportSize(SMALL);
    await app.getByLabel('Users per page').selectOption('100');
    const table = app.getByRole('table', { name: 'Users on page 1' });
    await expect(table.locator('tbody tr')).toHaveCount(60);
    await anonymiseThroughTheDialog(app, 'alice@example.org', 'REQ-NOTICE-1');
    const notices = app.getByRole('region', { name: 'Notifications' });
    await expect(notices.getByText(/anonymised \(request id/)).toBeVisible();

    // Scrolled to the end, the last users and the pagination are clear of the notices.
    await app.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await overlaps(notices, table.locator('tbody tr').last()), 'the kept notice covers the last user').toBe(false);
    expect(await overlaps(notices, app.getByRole('button', { name: /First page/ })), 'the kept notice covers the pagination').toBe(false);

    // The audit trail: its table scrolled to its last row, the page to its end.
    await app.getByRole('tab', { name: 'Audit trail' }).click();
    const grid = app.getByRole('table', { name: 'Audit trail entries' });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    await grid.evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await app.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await overlaps(notices, grid.getByRole('row').last()), 'the kept notice covers the last act of the audit trail').toBe(false);
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
    await anonymiseThroughTheDialog(app, uid, 'REQ-LONG-1', (dialog) => expectUidWhole(dialog, uid, 'the erasure dialog'));
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
