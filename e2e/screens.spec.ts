import type { Page, TestInfo } from '@playwright/test';
import { createSessionCredentialStore } from '../core/credential-store';
import { createI18n } from '../renderer/i18n';
import { visibleUidText } from '../shared/invisible-characters';
import { startWebHost } from '../web-host/web-host';
import { test, expect, uniqueName } from './fixtures';
import { finishedBatch, putSandboxFaults } from './sandbox-helpers';
import { seedRegister } from './register-helpers';
import { pgSkipReason, startPgCluster } from '../tests/support/pg-cluster';
import { anonymiseThroughTheDialog, expectNoSeriousAxeViolations, holdPageClock, runCountdown, saveScreenshot, type ErasureDialogWords } from './support';

/**
 * Every screen at the two sizes operators use (1360×850 and 1024×700), in both languages and both themes:
 * an axe check (WCAG 2 A/AA, no serious or critical finding) and a screenshot in test-results/screenshots/
 * (<screen>[-fr]-<size>-<theme>.png) for review. One page per size and language: each screen is opened once
 * and photographed in the light theme, then the dark one (the theme follows the system, emulated — the
 * console's default). A live profile's screens follow, and the keychain notice has its own small test.
 */

type Language = 'en' | 'fr';
type Say = (key: string, options?: Record<string, unknown>) => string;
interface Screen {
  name: string;
  /** A dialog (or a scrolled view): photographed as the window shows it, not as a full page. */
  viewport?: boolean;
  open: (page: Page) => Promise<void>;
  close?: (page: Page) => Promise<void>;
}

const SIZES = [
  { width: 1360, height: 850 },
  { width: 1024, height: 700 },
] as const;
const LANGUAGES: readonly Language[] = ['en', 'fr'];
const THEMES = ['light', 'dark'] as const;

/** The window's words in a language, from the same catalogue the console uses. */
function wordsOf(language: Language): Say {
  // Keys are built at run time here ("nav.users"…), so the catalogue's typed keys are not checked.
  const translate = createI18n(language).t as unknown as (key: string, options: Record<string, unknown>) => string;
  return (key, options) => translate(key, options ?? {});
}

/** What a label says before its first placeholder, to find "Results of the batch from 14:02" by its start. */
function startOf(say: Say, key: string): RegExp {
  const [start] = say(key, { time: '\u0000', id: '\u0000' }).split('\u0000');
  return new RegExp(`^${start!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** The view scrolls in its own box (main), between the pinned chrome and the docked notices: to its end, or back to its top. */
async function scrollView(page: Page, to: 'top' | 'end'): Promise<void> {
  await page.locator('main').evaluate((view, where) => view.scrollTo(0, where === 'top' ? 0 : view.scrollHeight), to);
}

/**
 * A whole-view shot: the window is made as tall as the view's content for the photo (the view, not the page,
 * scrolls, so a full-page shot would show only what the window shows), then given back its size.
 */
async function photographWholeView(page: Page, testInfo: TestInfo, name: string, theme: (typeof THEMES)[number]): Promise<void> {
  const size = page.viewportSize()!;
  const hidden = await page.locator('main').evaluate((view) => view.scrollHeight - view.clientHeight);
  if (hidden > 0) await page.setViewportSize({ width: size.width, height: size.height + hidden });
  await saveScreenshot(page, testInfo, name, theme, { fullPage: false });
  if (hidden > 0) await page.setViewportSize(size);
}

function closeDialog(say: Say) {
  return async (page: Page) => {
    await page.getByRole('dialog').getByRole('button', { name: new RegExp(`^(${say('common.cancel')}|${say('common.close')})$`) }).first().click();
    await expect(page.getByRole('dialog')).toBeHidden();
  };
}

/** The erasure dialog's words in the window's language. */
function erasureWords(say: Say): ErasureDialogWords {
  return {
    rowAnonymise: (uid) => say('users.rowAnonymize', { uid }),
    title: (uid) => say('erasure.titleAnonymize', { uid: visibleUidText(uid) }),
    typeUid: say('erasure.typeUid'),
    reference: say('erasure.reference'),
    confirm: say('common.confirm'),
    countdown: (seconds) => say('erasure.countdown', { seconds }),
  };
}

function screens(say: Say, sandboxUrl: string): Screen[] {
  const jean = 'jean dupont';
  const erasureDialog = (page: Page) => page.getByRole('dialog', { name: say('erasure.titleAnonymize', { uid: visibleUidText(jean) }) });
  return [
    {
      name: 'users',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.users') }).click();
        await expect(page.getByRole('table', { name: say('users.tableLabel', { page: 1 }) }).locator('tbody tr')).toHaveCount(25);
      },
    },
    {
      // A row's icon buttons say their word on hover.
      name: 'users-row-actions',
      viewport: true,
      open: async (page) => {
        const table = page.getByRole('table', { name: say('users.tableLabel', { page: 1 }) });
        await table.scrollIntoViewIfNeeded();
        await page.getByRole('button', { name: say('users.rowDelete', { uid: jean }), exact: true }).hover();
        await expect(page.getByRole('button', { name: say('users.rowDelete', { uid: jean }), exact: true }).getByText(say('users.delete'), { exact: true })).toBeVisible();
      },
      close: async (page) => page.mouse.move(0, 0),
    },
    {
      name: 'user-detail',
      open: async (page) => {
        await page.getByRole('button', { name: say('users.showDetails', { uid: jean }) }).click();
        await expect(page.getByRole('complementary', { name: say('detail.title') })).toBeVisible();
      },
      close: async (page) => page.getByRole('button', { name: say('detail.close') }).click(),
    },
    {
      name: 'erasure-dialog',
      viewport: true,
      open: async (page) => {
        await page.getByRole('button', { name: say('users.rowAnonymize', { uid: jean }) }).first().click();
        await erasureDialog(page).getByLabel(say('erasure.typeUid')).fill('Jean dupont');
        await expect(erasureDialog(page).getByText(say('erasure.noMatchCase'))).toBeVisible();
      },
      close: closeDialog(say),
    },
    {
      // The service refuses every request: the dialog shows its error panel and must keep its buttons in view.
      name: 'erasure-error',
      viewport: true,
      open: async (page) => {
        await page.getByRole('button', { name: say('users.rowAnonymize', { uid: jean }) }).first().click();
        const dialog = erasureDialog(page);
        await dialog.getByLabel(say('erasure.typeUid')).fill(jean);
        await putSandboxFaults(sandboxUrl, { errorRate: 1 });
        await holdPageClock(page);
        await dialog.getByRole('button', { name: say('common.confirm') }).click();
        await runCountdown(page, dialog, undefined, erasureWords(say).countdown);
        await expect(dialog.getByRole('alert').first()).toBeVisible({ timeout: 30_000 });
        await putSandboxFaults(sandboxUrl, { errorRate: 0 });
      },
      close: closeDialog(say),
    },
    {
      // An erasure done: its notice stays, docked under the view, which scrolls above it.
      name: 'kept-notice',
      viewport: true,
      open: async (page) => {
        await anonymiseThroughTheDialog(page, 'alice@example.org', 'DPO-2026/ACCESS-AND-ERASURE-REQUESTS/CASE-000118-A', { words: erasureWords(say) });
        await expect(page.getByRole('region', { name: say('common.notices') }).getByText(say('erasure.successAnonymize', { uid: 'alice@example.org', requestId: '\u0000' }).split('\u0000')[0]!)).toBeVisible();
        await scrollView(page, 'end');
      },
      close: async (page) => {
        await page.getByRole('region', { name: say('common.notices') }).getByRole('button', { name: say('common.dismiss') }).first().click();
        await scrollView(page, 'top');
      },
    },
    {
      name: 'logout-tester',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.logout') }).click();
        await page.getByLabel(say('logout.uid')).fill('alice@example.org');
        await expect(page.getByRole('region', { name: say('logout.preview') })).toContainText('"sub"');
      },
    },
    {
      name: 'audit',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.audit') }).click();
        await expect(page.getByRole('heading', { name: say('audit.title'), level: 2 })).toBeVisible();
        await expect(page.getByRole('table', { name: say('audit.tableLabel') }).getByRole('row').nth(1)).toBeVisible();
      },
    },
    {
      // Three requests (e2e/register-helpers.ts): overdue, due within a week, time left; the tab's badge counts two.
      name: 'requests',
      open: async (page) => {
        await page.getByRole('tab', { name: new RegExp(`^${say('nav.requests')}`) }).click();
        await expect(page.getByTestId('request-row')).toHaveCount(3);
        await expect(page.getByTestId('requests-badge')).toBeVisible();
      },
    },
    {
      name: 'request-page',
      open: async (page) => {
        await page.getByTestId('request-row').first().getByRole('button').first().click();
        await expect(page.getByTestId('request-timeline')).toBeVisible();
      },
      close: async (page) => page.getByRole('button', { name: new RegExp(say('requests.backToList')) }).click(),
    },
    {
      name: 'profiles',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.profiles') }).click();
        await expect(page.getByRole('list', { name: say('profiles.listLabel') })).toBeVisible();
      },
    },
    {
      name: 'profile-form',
      viewport: true,
      open: async (page) => {
        await page.getByRole('button', { name: say('profiles.addProfile') }).click();
        const dialog = page.getByRole('dialog', { name: say('profileForm.addTitle') });
        await dialog.getByRole('button', { name: say('profileForm.save') }).click();
        await expect(dialog.getByText(say('profileForm.fixErrors'))).toBeVisible();
      },
      close: closeDialog(say),
    },
    {
      name: 'delete-profile',
      viewport: true,
      open: async (page) => {
        await page.getByRole('button', { name: say('profiles.delete'), exact: true }).first().click();
        await expect(page.getByRole('dialog')).toBeVisible();
      },
      close: closeDialog(say),
    },
    {
      // The preview and the confirmation filled in: 20 uids (one with a trailing space), a duplicate and an invalid line.
      name: 'batch-preview',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.batch') }).click();
        const uids = Array.from({ length: 20 }, (_, index) => `request-${String(index + 1).padStart(3, '0')}@client.example${index === 6 ? ' ' : ''}`);
        await page.getByLabel(say('batch.input.pasteLabel')).fill([...uids.slice(0, 10), uids[3], '..', ...uids.slice(10)].join('\n'));
        await expect(page.getByText(say('batch.preview.toAnonymize', { count: 20, formatted: '20' }))).toBeVisible();
        await expect(page.getByText(say('batch.preview.edgeSpaces', { count: 1, formatted: '1', lines: '7' }))).toBeVisible();
        await page.getByLabel(say('batch.confirm.typePhrase', { phrase: 'ANONYMISE 20' })).fill('ANONYMISE 20');
        await expect(page.getByRole('button', { name: say('batch.confirm.start') })).toBeEnabled();
      },
      close: async (page) => {
        await page.getByLabel(say('batch.confirm.typePhrase', { phrase: 'ANONYMISE 20' })).fill('');
        await page.getByLabel(say('batch.input.pasteLabel')).fill('');
      },
    },
    {
      // A CSV pasted from a spreadsheet export: the preview names the column the uids were read from.
      name: 'batch-preview-csv',
      open: async (page) => {
        await page.getByLabel(say('batch.input.pasteLabel')).fill(['email,User ID,ticket', 'a@client.example,request-001@client.example,T-1', 'b@client.example,request-002@client.example,T-2', 'c@client.example,,T-3'].join('\n'));
        await expect(page.getByText(say('batch.preview.toAnonymize', { count: 2, formatted: '2' }))).toBeVisible();
        await expect(page.getByText(say('batch.preview.uidColumnNamed', { name: 'User ID', number: 2 }))).toBeVisible();
      },
      close: async (page) => page.getByLabel(say('batch.input.pasteLabel')).fill(''),
    },
    {
      // A finished job's results (the job was run through the bridge before the screens).
      name: 'batch-results',
      open: async (page) => {
        await page.getByRole('button', { name: startOf(say, 'batch.jobs.showFor') }).first().click();
        await expect(page.getByRole('table', { name: startOf(say, 'batch.results.tableLabel') }).locator('tbody tr')).toHaveCount(5);
      },
      close: async (page) => page.getByRole('button', { name: say('common.close'), exact: true }).click(),
    },
  ];
}

/** A profile on a non-loopback host: the console marks it live. Nothing is sent to it (the name does not resolve). */
function liveScreens(say: Say, sandboxProfileName: string, liveProfileName: string): Screen[] {
  const host = 'debate.example.com';
  return [
    {
      name: 'live-users',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.users') }).click();
        await expect(page.getByRole('note').first()).toContainText(host);
      },
    },
    {
      // Scrolled to the bottom (viewport shot): the live marking must still be in view.
      name: 'live-users-scrolled',
      viewport: true,
      open: async (page) => {
        await scrollView(page, 'end');
        await expect(page.getByRole('note').first()).toBeInViewport();
      },
    },
    {
      name: 'live-logout-scrolled',
      viewport: true,
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.logout') }).click();
        await scrollView(page, 'end');
        await expect(page.getByRole('note').first()).toBeInViewport();
      },
    },
    {
      name: 'live-logout-confirm',
      viewport: true,
      open: async (page) => {
        await page.getByLabel(say('logout.uid')).fill('jean dupont');
        await page.getByRole('button', { name: say('logout.send') }).click();
        await expect(page.getByRole('dialog', { name: say('liveConfirm.logoutTitle') })).toBeVisible();
      },
      close: async (page) => {
        await closeDialog(say)(page);
        await page.getByRole('tab', { name: say('nav.users') }).click();
      },
    },
    {
      // The batch preview on a live profile: the same live marking as the erasure dialog (nothing is sent).
      name: 'live-batch',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.batch') }).click();
        await page.getByLabel(say('batch.input.pasteLabel')).fill('request-001@client.example\nrequest-002@client.example');
        await expect(page.getByText(say('erasure.liveWarning', { host }))).toBeVisible();
        await expect(page.getByText(say('batch.preview.toAnonymize', { count: 2, formatted: '2' }))).toBeVisible();
      },
      close: async (page) => {
        await page.getByLabel(say('batch.input.pasteLabel')).fill('');
        await page.getByRole('tab', { name: say('nav.users') }).click();
      },
    },
    {
      name: 'live-erasure-dialog',
      viewport: true,
      open: async (page) => {
        const box = page.getByRole('region', { name: say('actOnUid.title') });
        await box.getByLabel(say('actOnUid.label'), { exact: true }).fill('jean dupont');
        await box.getByRole('button', { name: say('users.delete'), exact: true }).click();
        const dialog = page.getByRole('dialog');
        // Nothing answers on a live profile: the console cannot say whom the uid belongs to, stops reading if it
        // still is, and the operator goes on anyway — the ceremony (the tallest dialog) follows.
        const stop = dialog.getByRole('button', { name: say('common.cancel'), exact: true });
        const onward = dialog.getByRole('button', { name: say('identity.continueAnyway'), exact: true });
        await expect(stop.or(onward).first()).toBeVisible({ timeout: 20_000 });
        if (!(await onward.isVisible())) await stop.click();
        await onward.click();
        await expect(dialog.getByLabel(say('erasure.typeUid'))).toBeVisible();
      },
      close: closeDialog(say),
    },
    {
      name: 'live-switch-confirm',
      viewport: true,
      open: async (page) => {
        const switcher = page.getByRole('combobox', { name: say('header.activeProfile') });
        await switcher.selectOption({ label: sandboxProfileName });
        await expect(page.getByRole('note')).toHaveCount(0);
        await switcher.selectOption({ label: liveProfileName });
        await expect(page.getByRole('dialog', { name: say('liveConfirm.switchTitle') })).toBeVisible();
      },
      close: closeDialog(say),
    },
  ];
}

/** The batch these screens show finished: five plain seeded uids from the 31st on. */
const fivePlainUidsFrom31st = (uids: (string | null)[]) => uids.slice(30).filter((uid): uid is string => uid !== null && /^[\w.@-]{1,60}$/.test(uid)).slice(0, 5);

/** Waits until the console has applied the emulated system theme. */
async function useTheme(page: Page, theme: (typeof THEMES)[number]): Promise<void> {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

async function chooseLanguage(page: Page, language: Language): Promise<void> {
  if (language === 'en') return;
  await page.getByRole('combobox', { name: wordsOf('en')('header.language') }).selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

for (const size of SIZES) {
  for (const language of LANGUAGES) {
    test(`every screen at ${size.width}×${size.height} in ${language === 'en' ? 'English' : 'French'}, light and dark: accessible and photographed`, async ({ app, bridge, profile, sandbox }, testInfo) => {
      test.slow(true, 'twenty screens, each with two axe scans and two screenshots, in one test');
      const say = wordsOf(language);
      const suffix = `${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`;
      await app.setViewportSize(size);
      await useTheme(app, 'light');
      await chooseLanguage(app, language);
      // One logout and one finished batch so the tester, the trail and the batch screen show real content.
      await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: {} });
      await finishedBatch(bridge, profile.id, 'REQ-2026-118', fivePlainUidsFrom31st);
      await seedRegister(bridge, profile.id);
      const problems: string[] = [];
      const shoot = async (screen: Screen) => {
        await screen.open(app);
        for (const theme of THEMES) {
          await useTheme(app, theme);
          if (screen.viewport) {
            await saveScreenshot(app, testInfo, `${screen.name}${suffix}`, theme, { fullPage: false });
          } else {
            await scrollView(app, 'top');
            await photographWholeView(app, testInfo, `${screen.name}${suffix}`, theme);
          }
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `${screen.name}${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            // Keep going so one run reports every screen; fail at the end.
            problems.push((error as Error).message);
          }
        }
        await useTheme(app, 'light');
        await screen.close?.(app);
      };
      for (const screen of screens(say, sandbox.url)) await shoot(screen);

      const { apiKey, apiSecret, applicationName } = sandbox.credentials;
      const live = await bridge('profiles.save', { name: uniqueName('E2E live'), baseUrl: 'https://debate.example.com', applicationName, apiKey, apiSecret });
      if (!live.ok) throw new Error(`Saving the live profile failed: ${live.error.message}`);
      try {
        await bridge('profiles.setActive', { id: live.value.id });
        await app.reload();
        await expect(app.getByRole('tablist', { name: say('nav.label') })).toBeVisible();
        for (const screen of liveScreens(say, profile.name, live.value.name)) await shoot(screen);
      } finally {
        await bridge('profiles.remove', { id: live.value.id, confirmName: live.value.name }).catch(() => undefined);
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  }
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

withoutKeychain('the keychain notice, unread and folded, at both sizes, in both languages and themes', async ({ app }, testInfo) => {
  for (const language of LANGUAGES) {
    const say = wordsOf(language);
    await chooseLanguage(app, language);
    const notice = app.getByRole('status').filter({ hasText: say('keychain.title') });
    for (const state of ['unread', 'folded'] as const) {
      if (state === 'folded') await notice.getByRole('button', { name: say('keychain.gotIt') }).click();
      for (const size of SIZES) {
        await app.setViewportSize(size);
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await saveScreenshot(app, testInfo, `keychain-${state}${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`, theme, { fullPage: false });
          // Contrast and names do not change with the width: one scan per state, language and theme.
          if (size === SIZES[1]) await expectNoSeriousAxeViolations(app, testInfo, `keychain notice ${state} ${language} (${theme})`);
        }
      }
    }
    await notice.getByRole('button', { name: say('keychain.showDetails') }).click();
  }
});

/** The Reconcile tab: the application's list against the sandbox, its orphans (the 1,024-character uid among them, scrolling in its cell), then its near matches. */
function reconcileScreens(say: Say): Screen[] {
  return [
    {
      name: 'reconcile',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.reconcile') }).click();
        await page.getByLabel(say('reconcile.input.pasteLabel')).fill(['Jean Dupont', ' bob+news@example.org', 'team/lead', '東京ユーザー', 'only-in-the-application'].join('\n'));
        await expect(page.getByTestId('reconcile-list-summary')).toContainText(say('reconcile.input.read', { count: 5 }));
        await page.getByRole('button', { name: say('reconcile.start'), exact: true }).click();
        await expect(page.getByRole('heading', { name: say('reconcile.results.heading') })).toBeVisible();
        await expect(page.getByTestId('reconcile-table').locator('tbody tr')).toHaveCount(56);
      },
    },
    {
      name: 'reconcile-near-matches',
      open: async (page) => {
        await page.getByTestId('reconcile-count-nearMatches').click();
        await expect(page.getByTestId('reconcile-table').locator('tbody tr')).toHaveCount(2);
      },
    },
  ];
}

// Their own tests (not in the long one above, which is near its time limit): both sizes, languages and themes, axe-scanned and photographed.
for (const size of SIZES) {
  for (const language of LANGUAGES) {
    test(`the Reconcile tab at ${size.width}×${size.height} in ${language === 'en' ? 'English' : 'French'}, light and dark: accessible and photographed`, async ({ app }, testInfo) => {
      const say = wordsOf(language);
      const suffix = `${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`;
      await app.setViewportSize(size);
      await useTheme(app, 'light');
      await chooseLanguage(app, language);
      const problems: string[] = [];
      for (const screen of reconcileScreens(say)) {
        await screen.open(app);
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await scrollView(app, 'top');
          await photographWholeView(app, testInfo, `${screen.name}${suffix}`, theme);
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `${screen.name}${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
        await useTheme(app, 'light');
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  }
}

/** The logout tester's conformance run against the sandbox as it behaves by default: its table, then only the cases not conformant. */
function conformanceScreens(say: Say): Screen[] {
  const section = (page: Page) => page.getByRole('region', { name: say('conformance.title') });
  return [
    {
      name: 'logout-conformance',
      open: async (page) => {
        await page.getByRole('tab', { name: say('nav.logout') }).click();
        await page.getByLabel(say('logout.uid')).fill('alice@example.org');
        await section(page).getByRole('button', { name: say('conformance.run') }).click();
        await expect(section(page).getByTestId('conformance-row')).toHaveCount(19);
        await section(page).scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'logout-conformance-filtered',
      open: async (page) => {
        await section(page).getByRole('combobox', { name: say('conformance.filters.verdict') }).selectOption('not-conformant');
        await expect(section(page).getByTestId('conformance-row')).toHaveCount(8);
      },
    },
  ];
}

// Their own tests, as the Reconcile tab's: both sizes, languages and themes, axe-scanned and photographed.
for (const size of SIZES) {
  for (const language of LANGUAGES) {
    test(`the logout conformance run at ${size.width}×${size.height} in ${language === 'en' ? 'English' : 'French'}, light and dark: accessible and photographed`, async ({ app }, testInfo) => {
      const say = wordsOf(language);
      const suffix = `${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`;
      await app.setViewportSize(size);
      await useTheme(app, 'light');
      await chooseLanguage(app, language);
      const problems: string[] = [];
      for (const screen of conformanceScreens(say)) {
        await screen.open(app);
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await scrollView(app, 'top');
          await photographWholeView(app, testInfo, `${screen.name}${suffix}`, theme);
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `${screen.name}${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
        await useTheme(app, 'light');
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  }
}

// Team mode on: the settings section with the team database reached, and the header's mark. A temporary PostgreSQL
// cluster of its own (skipped, with the reason, where none can be started).
const teamSkip = pgSkipReason();
test('the Team mode settings, on, at both sizes, in both languages and themes: accessible and photographed', async ({ app, bridge, profile }, testInfo) => {
  test.skip(teamSkip !== null, `team mode needs a PostgreSQL server: ${teamSkip ?? ''}`);
  test.setTimeout(180_000);
  const cluster = await startPgCluster({ fsync: false });
  try {
    const connected = await bridge('team.connect', { databaseUrl: cluster.url, password: cluster.password });
    expect(connected.ok, connected.ok ? '' : connected.error.message).toBe(true);
    // Acts on the team trail, so its audit view (read a page at a time from the database) shows real rows.
    await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: {} });
    await finishedBatch(bridge, profile.id, 'REQ-2026-118', fivePlainUidsFrom31st);
    await app.reload();
    const problems: string[] = [];
    for (const language of LANGUAGES) {
      const say = wordsOf(language);
      await chooseLanguage(app, language);
      await app.getByRole('tab', { name: say('nav.audit') }).click();
      await expect(app.getByTestId('audit-where')).toBeVisible();
      for (const size of SIZES) {
        await app.setViewportSize(size);
        const suffix = `${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`;
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await scrollView(app, 'top');
          await photographWholeView(app, testInfo, `team-audit${suffix}`, theme);
          if (size !== SIZES[1]) continue;
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `team-audit${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
      }
      await app.getByRole('tab', { name: say('nav.profiles') }).click();
      await expect(app.getByTestId('team-reachable')).toBeVisible();
      await expect(app.getByTestId('team-badge')).toHaveText(say('teamMode.header', { where: cluster.url.replace('postgres://', '') }));
      for (const size of SIZES) {
        await app.setViewportSize(size);
        const suffix = `${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`;
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await scrollView(app, 'top');
          await photographWholeView(app, testInfo, `team-mode${suffix}`, theme);
          if (size !== SIZES[1]) continue;
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `team-mode${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
        // The import dialog: what this folder would move, what stays, IMPORT typed (not sent: the folder stays as it is).
        await app.getByRole('button', { name: say('teamMode.importOpen') }).click();
        const dialog = app.getByRole('dialog', { name: say('teamMode.importDialog.title') });
        await expect(dialog.getByTestId('team-import-preview')).toBeVisible();
        await dialog.getByLabel(say('teamMode.importDialog.typeLabel', { phrase: 'IMPORT' })).fill('IMPORT');
        for (const theme of THEMES) {
          await useTheme(app, theme);
          await saveScreenshot(app, testInfo, `team-import${suffix}`, theme, { fullPage: false });
          try {
            await expectNoSeriousAxeViolations(app, testInfo, `team-import${suffix} (${theme})`, theme === THEMES[0] ? 'all' : 'colours');
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
        await closeDialog(say)(app);
      }
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  } finally {
    // The keychain entry goes with the setting: the shared test keyring stays clean.
    await bridge('team.disconnect', {}).catch(() => undefined);
    await cluster.destroy();
  }
});
