import type { Page } from '@playwright/test';
import { test, expect, uniqueName, type BridgeCaller } from './fixtures';
import { expectNoSeriousAxeViolations, holdPageClock, runCountdown, saveScreenshot } from './support';

/**
 * Every main screen at the two sizes operators use (1360×850 and 1024×700), in both themes: an axe
 * check (WCAG 2 A/AA, no serious or critical finding) and a screenshot in test-results/screenshots/
 * for review. The theme follows the system (emulated), the console's default. Each size also shows
 * the users list in French and the chrome of a live profile (banner, a dialog on a live profile).
 */

type Screen = { name: string; dialog?: boolean; open: (page: Page) => Promise<void>; close?: (page: Page) => Promise<void> };

async function putFaults(sandboxUrl: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  expect(response.ok).toBe(true);
}

async function closeDialog(page: Page): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: /^(Cancel|Close)$/ }).first().click();
  await expect(page.getByRole('dialog')).toBeHidden();
}

function screens(sandboxUrl: string): Screen[] {
  return [
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
      close: closeDialog,
    },
    {
      // The service refuses every request: the dialog shows its error panel and must keep its buttons in view.
      name: 'erasure-error',
      dialog: true,
      open: async (page) => {
        await page.getByRole('button', { name: 'Anonymise jean dupont' }).first().click();
        const dialog = page.getByRole('dialog', { name: 'Anonymise user jean dupont' });
        await dialog.getByLabel('Type the uid to confirm').fill('jean dupont');
        await putFaults(sandboxUrl, { errorRate: 1 });
        await holdPageClock(page);
        await dialog.getByRole('button', { name: 'Confirm' }).click();
        await runCountdown(page, dialog);
        await expect(dialog.getByRole('alert').first()).toBeVisible({ timeout: 30_000 });
        await putFaults(sandboxUrl, { errorRate: 0 });
      },
      close: closeDialog,
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
      close: closeDialog,
    },
    {
      // The preview and the confirmation filled in: 20 uids (one with a trailing space), a duplicate and an invalid line.
      name: 'batch-preview',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Batch' }).click();
        const uids = Array.from({ length: 20 }, (_, index) => `request-${String(index + 1).padStart(3, '0')}@client.example${index === 6 ? ' ' : ''}`);
        await page.getByLabel('uids to erase').fill([...uids.slice(0, 10), uids[3], '..', ...uids.slice(10)].join('\n'));
        await expect(page.getByText('Anonymise 20 users')).toBeVisible();
        await expect(page.getByText('1 uid begins or ends with spaces and is kept exactly: line 7 — check it matches the request.')).toBeVisible();
        await page.getByLabel('Type ANONYMISE 20 to confirm').fill('ANONYMISE 20');
        await expect(page.getByRole('button', { name: 'Start' })).toBeEnabled();
      },
      close: async (page) => {
        await page.getByLabel('Type ANONYMISE 20 to confirm').fill('');
        await page.getByLabel('uids to erase').fill('');
      },
    },
    {
      // A CSV pasted from a spreadsheet export: the preview names the column the uids were read from.
      name: 'batch-preview-csv',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Batch' }).click();
        await page.getByLabel('uids to erase').fill(['email,User ID,ticket', 'a@client.example,request-001@client.example,T-1', 'b@client.example,request-002@client.example,T-2', 'c@client.example,,T-3'].join('\n'));
        await expect(page.getByText('Anonymise 2 users')).toBeVisible();
        await expect(page.getByText('“User ID” (column 2)')).toBeVisible();
      },
      close: async (page) => {
        await page.getByLabel('uids to erase').fill('');
      },
    },
    {
      // A finished job's results (the job was run through the bridge before the screens).
      name: 'batch-results',
      open: async (page) => {
        await page.getByRole('button', { name: /^Results of the batch from / }).first().click();
        await expect(page.getByRole('table', { name: /^Results of batch / }).locator('tbody tr')).toHaveCount(5);
      },
      close: async (page) => page.getByRole('button', { name: 'Close', exact: true }).click(),
    },
    {
      name: 'users-fr',
      open: async (page) => {
        await page.getByLabel('Language').selectOption('fr');
        await page.getByRole('tab', { name: 'Utilisateurs' }).click();
        await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(25);
      },
    },
    {
      name: 'audit-fr',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Journal d’audit' }).click();
        await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
      },
    },
    {
      // The preview in French: invalid lines and edge spaces in the window's language, excerpts as they are.
      name: 'batch-fr',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Par lot' }).click();
        await page.getByLabel('uid à effacer').fill(['request-001@client.example', '..', ' request-002@client.example', 'request-003@client.example'].join('\n'));
        await expect(page.getByText('Anonymiser 3 utilisateurs')).toBeVisible();
        await expect(page.getByText(/^Un uid « \. » ou « \.\. » ne peut pas être envoyé/)).toBeVisible();
      },
      close: async (page) => {
        await page.getByLabel('uid à effacer').fill('');
        await page.getByLabel('Langue').selectOption('en');
      },
    },
  ];
}

/** A profile on a non-loopback host: the console marks it live. Nothing is sent to it. */
const LIVE_SCREENS: Screen[] = [
  {
    name: 'live-users',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Users' }).click();
      await expect(page.getByRole('note').first()).toContainText('debate.example.com');
    },
  },
  {
    // Scrolled to the bottom (viewport shot): the live marking must still be in view.
    name: 'live-users-scrolled',
    dialog: true,
    open: async (page) => {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(page.getByRole('note').first()).toBeInViewport();
    },
  },
  {
    name: 'live-logout-scrolled',
    dialog: true,
    open: async (page) => {
      await page.getByRole('tab', { name: 'Logout tester' }).click();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(page.getByRole('note').first()).toBeInViewport();
    },
    close: async (page) => {
      await page.getByRole('tab', { name: 'Users' }).click();
    },
  },
  {
    // The batch preview on a live profile: the same live marking as the erasure dialog (nothing is sent).
    name: 'live-batch',
    open: async (page) => {
      await page.getByRole('tab', { name: 'Batch' }).click();
      await page.getByLabel('uids to erase').fill('request-001@client.example\nrequest-002@client.example');
      await expect(page.getByText('LIVE DATA: this changes a real user on debate.example.com.')).toBeVisible();
      await expect(page.getByText('Anonymise 2 users')).toBeVisible();
    },
    close: async (page) => {
      await page.getByLabel('uids to erase').fill('');
      await page.getByRole('tab', { name: 'Users' }).click();
    },
  },
  {
    name: 'live-erasure-dialog',
    dialog: true,
    open: async (page) => {
      const box = page.getByRole('region', { name: 'Act on a uid' });
      await box.getByLabel('uid', { exact: true }).fill('jean dupont');
      await box.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      // A uid the console has not seen is announced first; the ceremony (the tallest dialog) follows.
      const goOn = page.getByRole('dialog').getByRole('button', { name: 'Continue anyway' });
      if (await goOn.isVisible()) await goOn.click();
      await expect(page.getByRole('dialog').getByLabel('Type the uid to confirm')).toBeVisible();
    },
    close: closeDialog,
  },
];

/** Anonymises five plain seeded uids as a batch through the bridge and waits until the job is finished. */
async function finishedBatch(bridge: BridgeCaller, profileId: string): Promise<void> {
  const listed = await bridge('users.list', { profileId, page: 1, perPage: 60 });
  if (!listed.ok) throw new Error(listed.error.message);
  const uids = listed.value.users.slice(30).map((user) => user.uid).filter((uid): uid is string => uid !== null && /^[\w.@-]{1,60}$/.test(uid)).slice(0, 5);
  const preview = await bridge('batch.preview', { text: uids.join('\n'), sourceName: 'requests.txt' });
  if (!preview.ok) throw new Error(preview.error.message);
  const started = await bridge('batch.start', { draftId: preview.value.draftId, profileId, action: 'anonymize', reference: 'REQ-2026-118', confirmation: `ANONYMISE ${uids.length}` });
  if (!started.ok) throw new Error(started.error.message);
  await expect
    .poll(async () => {
      const job = await bridge('batch.get', { batchId: started.value.batchId });
      return job.ok ? job.value.job?.state : undefined;
    })
    .toBe('finished');
}

const SIZES = [
  { width: 1360, height: 850 },
  { width: 1024, height: 700 },
] as const;

for (const size of SIZES) {
  for (const theme of ['light', 'dark'] as const) {
    test(`every screen at ${size.width}×${size.height} in the ${theme} theme: accessible and photographed`, async ({ app, bridge, profile, sandbox }, testInfo) => {
      test.slow(true, 'a dozen screens, each with an axe scan and a screenshot, in one test');
      await app.setViewportSize(size);
      await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      // One logout and one audit entry so the tester and the trail show real content.
      await bridge('logout.send', { profileId: profile.id, uid: 'alice@example.org', options: {} });
      await finishedBatch(bridge, profile.id);
      const problems: string[] = [];
      const shoot = async (screen: Screen) => {
        await screen.open(app);
        // The header is sticky: a full-page shot taken while scrolled would draw it mid-page.
        if (!screen.dialog) await app.evaluate(() => window.scrollTo(0, 0));
        await saveScreenshot(app, testInfo, `${screen.name}-${size.width}x${size.height}`, theme, { fullPage: !screen.dialog });
        try {
          await expectNoSeriousAxeViolations(app, testInfo, `${screen.name} ${size.width}×${size.height} (${theme})`);
        } catch (error) {
          // Keep going so one run reports every screen; fail at the end.
          problems.push((error as Error).message);
        }
        await screen.close?.(app);
      };
      for (const screen of screens(sandbox.url)) await shoot(screen);

      const { apiKey, apiSecret, applicationName } = sandbox.credentials;
      const live = await bridge('profiles.save', { name: uniqueName('E2E live'), baseUrl: 'https://debate.example.com', applicationName, apiKey, apiSecret });
      if (!live.ok) throw new Error(`Saving the live profile failed: ${live.error.message}`);
      try {
        await bridge('profiles.setActive', { id: live.value.id });
        await app.reload();
        for (const screen of LIVE_SCREENS) await shoot(screen);
      } finally {
        await bridge('profiles.remove', { id: live.value.id, confirmName: live.value.name }).catch(() => undefined);
      }
      expect(problems, problems.join('\n\n')).toEqual([]);
    });
  }
}
