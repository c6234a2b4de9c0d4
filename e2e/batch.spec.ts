import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures';
import { plainUids, setLatency } from './sandbox-helpers';
import { saveScreenshot } from './support';

/**
 * The support agent's 20 uids in the console, against the real web host and a sandbox:
 * one paste, one typed confirmation, one click; the run is watched, paused and resumed,
 * its results exported, and the audit trail shows every item.
 */

test('20 uids: one paste, the typed phrase, one click; progress, pause and resume, results exported, every item in the audit trail', async ({ app, bridge, sandbox, profile }, testInfo) => {
  test.slow(true, 'a batch of 20 against a sandbox slowed down so that the run can be paused');
  const uids = await plainUids(bridge, profile.id, 20);
  // Each answer takes a second: the run lasts long enough to be paused by hand.
  await setLatency(sandbox.url, 1000);

  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill(uids.join('\n'));
  // The preview comes by itself: no button between the paste and the confirmation.
  await expect(app.getByText('Anonymise 20 users')).toBeVisible();
  await app.getByRole('radio', { name: 'Delete' }).check();
  await expect(app.getByText('Delete 20 users')).toBeVisible();
  await app.getByRole('checkbox', { name: 'End each user’s sessions first' }).uncheck();
  const start = app.getByRole('button', { name: 'Start' });
  await expect(start).toBeDisabled();
  await app.getByLabel('Type DELETE 20 to confirm').fill('DELETE 20');
  await start.click();

  const progress = app.getByRole('region', { name: 'Progress' });
  await expect(progress).toBeVisible();
  await progress.getByRole('button', { name: 'Pause' }).click();
  await expect(progress.getByText(/Paused since .+: nothing new is sent until you resume\.$/)).toBeVisible();
  // Paused with items left: the run waits for the operator.
  await expect(progress.getByText(/^\d+ of 20 finished$/)).toBeVisible();
  expect(Number((await progress.getByText(/^\d+ of 20 finished$/).textContent())!.split(' ')[0])).toBeLessThan(20);
  await saveScreenshot(app, testInfo, 'batch-paused', 'light');
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(progress.getByRole('button', { name: 'Pause' })).toBeVisible();
  await setLatency(sandbox.url, 0);

  await expect(app.getByText('Batch finished: all 20 items have their outcome')).toBeVisible({ timeout: 60_000 });
  const summary = app.getByRole('list', { name: 'Items by outcome' });
  await expect(summary.locator('.batch-outcome--done .batch-outcome__count')).toHaveText('20');
  const table = app.getByRole('table', { name: /^Results of batch / });
  await expect(table.locator('tbody tr')).toHaveCount(20);
  for (const uid of [uids[0]!, uids[19]!]) await expect(table.locator('tbody tr').filter({ hasText: uid }).first()).toContainText('Done');
  await app.setViewportSize({ width: 1360, height: 850 });
  await saveScreenshot(app, testInfo, 'batch-finished', 'light');

  const [download] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export results (CSV)' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const lines = csv.split(/\r?\n/).filter((line) => line !== '');
  expect(lines).toHaveLength(21);
  for (const uid of uids) expect(lines.filter((line) => line.includes(uid)).length, `the CSV has a row for ${uid}`).toBeGreaterThanOrEqual(1);

  // The sandbox agrees: every uid is gone.
  for (const uid of uids) {
    const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
    if (response.status === 200) expect(((await response.json()) as { state: string }).state).toBe('deleted');
    else expect(response.status).toBe(404);
  }

  // The audit view shows the entries: each uid's act, with the batch's summary.
  const reading = await bridge('audit.read', {});
  if (!reading.ok) throw new Error(reading.error.message);
  for (const uid of uids) expect(reading.value.entries.some((entry) => entry.uid === uid && entry.action === 'delete' && entry.outcome === 'done'), `a done entry for ${uid}`).toBe(true);
  await app.getByRole('tab', { name: 'Audit trail' }).click();
  const filters = app.getByRole('search', { name: 'Filter the audit trail' });
  for (const uid of [uids[0]!, uids[10]!, uids[19]!]) {
    await filters.getByLabel('uid', { exact: true }).fill(uid);
    await expect(app.getByText('1 act matches', { exact: false })).toBeVisible();
    await expect(app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: uid }).first()).toContainText('Done');
  }
  // The batch's own summary, found through the operation filter.
  await filters.getByLabel('uid', { exact: true }).fill('');
  await filters.getByLabel('Operation').selectOption('batch');
  await expect(app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: 'Delete 20: 20 done, 0 not found, 0 failed, 0 unfinished (finished)' }).first()).toBeVisible();
});
