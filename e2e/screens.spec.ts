import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { expectNoSeriousAxeViolations, saveScreenshot } from './support';

/**
 * Every main screen, in both themes: an axe check (WCAG 2 A/AA, no serious or
 * critical finding) and a screenshot in test-results/screenshots/ for review.
 * The theme follows the system (emulated), the console's default.
 */

type Screen = { name: string; dialog?: boolean; open: (page: Page) => Promise<void>; close?: (page: Page) => Promise<void> };

const SCREENS: Screen[] = [
  {
    name: 'users',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Users' }).click();
      await expect(page.getByRole('table', { name: 'Users on page 1' }).locator('tbody tr')).toHaveCount(25);
    },
  },
  {
    name: 'user-detail',
    open: async (page) => {
      await page.getByRole('button', { name: 'Show details of jean dupont' }).click();
      await expect(page.getByRole('complementary', { name: 'User details' })).toBeVisible();
    },
    close: async (page) => page.getByRole('button', { name: 'Close details' }).click(),
  },
  {
    name: 'erasure-dialog',
    dialog: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Anonymise jean dupont' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Anonymise user jean dupont' });
      await dialog.getByLabel('Type the uid to confirm').fill('Jean dupont');
      await expect(dialog.getByText('Does not match: check upper and lower case')).toBeVisible();
    },
    close: async (page) => {
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
    },
  },
  {
    name: 'logout-tester',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Logout tester' }).click();
      await page.getByLabel('User uid').fill('alice@example.org');
      await expect(page.getByRole('region', { name: 'Live preview' })).toContainText('"sub"');
    },
  },
  {
    name: 'audit',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Audit trail' }).click();
      await expect(page.getByRole('heading', { name: 'Audit trail', level: 2 })).toBeVisible();
    },
  },
  {
    name: 'profiles',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Profiles' }).click();
      await expect(page.getByRole('list', { name: 'Connection profiles' })).toBeVisible();
    },
  },
  {
    name: 'profile-form',
    dialog: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'Add profile' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a profile' });
      await dialog.getByRole('button', { name: 'Save profile' }).click();
      await expect(dialog.getByText('Correct the highlighted fields.')).toBeVisible();
    },
    close: async (page) => {
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
    },
  },
];

for (const theme of ['light', 'dark'] as const) {
  test(`every main screen in the ${theme} theme: accessible and photographed`, async ({ app, bridge, profile }, testInfo) => {
    test.slow(true, 'seven screens, each with an axe scan and a screenshot, in one test');
    await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    // One logout and one audit entry so the tester and the trail show real content.
    await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: {} });
    const problems: string[] = [];
    for (const screen of SCREENS) {
      await screen.open(app);
      await saveScreenshot(app, testInfo, screen.name, theme, { fullPage: !screen.dialog });
      try {
        await expectNoSeriousAxeViolations(app, testInfo, `${screen.name} (${theme})`);
      } catch (error) {
        // Keep going so one run reports every screen; fail at the end.
        problems.push((error as Error).message);
      }
      await screen.close?.(app);
    }
    expect(problems, problems.join('\n\n')).toEqual([]);
  });
}
