import { expect, sandboxUser, test } from './fixtures';
import { plainUids, setLatency } from './sandbox-helpers';
import { saveScreenshot } from './support';

/**
 * The trial's case, in Chromium against the web host and a sandbox: a delete of 12 uids is cancelled, Resume
 * is opened and declined. The console goes back to the stopped job's results, and the form it comes back to
 * is not armed: the phrase typed for the batch that ran confirms nothing more, and no uid is deleted again.
 */

test('declining the resume panel goes back to the stopped job’s results; the form is not armed and nothing more is deleted', async ({ app, bridge, sandbox, profile }, testInfo) => {
  test.slow(true, 'a batch slowed down so that it can be cancelled half-way');
  const uids = await plainUids(bridge, profile.id, 12);
  // A slow service leaves time to cancel while the second of the run's waves is in flight: twelve items are more than
  // its senders, so some are never sent, whenever the click lands.
  await setLatency(sandbox.url, 1500);
  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill(uids.join('\n'));
  await app.getByRole('radio', { name: 'Delete' }).check();
  await expect(app.getByText('Delete 12 users')).toBeVisible();
  await app.getByRole('checkbox', { name: 'End each user’s sessions first' }).uncheck();
  await app.getByLabel('Type DELETE 12 to confirm').fill('DELETE 12');
  await app.getByRole('button', { name: 'Start' }).click();

  const progress = app.getByRole('region', { name: 'Progress' });
  await expect(progress.getByText(/^([1-9]|1[01]) of 12 finished$/)).toBeVisible({ timeout: 20_000 });
  await progress.getByRole('button', { name: 'Cancel batch' }).click();
  const stopped = app.getByText(/^Batch stopped: ([1-9]|1[01]) of 12 items unfinished$/);
  await expect(stopped).toBeVisible({ timeout: 20_000 });
  const headline = await stopped.textContent();
  const unfinished = Number(/: (\d+) of 12/.exec(headline!)![1]);
  const deletedBefore = (await Promise.all(uids.map((uid) => sandboxUser(sandbox, uid)))).filter((user) => user.state === 'deleted').length;
  expect(deletedBefore).toBe(12 - unfinished);

  // Resume, then Cancel: back to the stopped job's results.
  await app.locator('.batch-job').getByRole('button', { name: 'Resume' }).click();
  await expect(app.getByLabel(`Type DELETE ${unfinished} to confirm`)).toBeVisible();
  await app.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(app.getByText(headline!)).toBeVisible();
  await expect(app.getByRole('table', { name: /^Results of batch / })).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      await app.setViewportSize(size);
      await saveScreenshot(app, testInfo, `batch-resume-declined-${size.width}x${size.height}`, theme);
    }
  }
  await app.emulateMedia({ colorScheme: 'light' });
  await app.setViewportSize({ width: 1360, height: 850 });

  // Closing the results: the list is there, the phrase is not, Start cannot send, Enter sends nothing.
  await app.getByRole('button', { name: 'Close' }).click();
  await expect(app.getByText('Delete 12 users')).toBeVisible();
  const field = app.getByLabel('Type DELETE 12 to confirm');
  await expect(field).toHaveValue('');
  await expect(app.getByRole('button', { name: 'Start' })).toBeDisabled();
  await field.press('Enter');
  await expect(app.getByRole('region', { name: 'Progress' })).toHaveCount(0);
  await saveScreenshot(app, testInfo, 'batch-form-after-resume-declined', 'light');
  const deletedAfter = (await Promise.all(uids.map((uid) => sandboxUser(sandbox, uid)))).filter((user) => user.state === 'deleted').length;
  expect(deletedAfter).toBe(deletedBefore);

  // In French the same path reads the same way.
  await app.getByLabel('Language').selectOption('fr');
  await expect(app.getByRole('button', { name: 'Lancer' })).toBeDisabled();
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.setViewportSize({ width: 1024, height: 700 });
  await saveScreenshot(app, testInfo, 'batch-form-after-resume-declined-fr-1024x700', 'dark');
});
