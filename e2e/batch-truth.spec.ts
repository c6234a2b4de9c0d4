import { createSandboxUser, expect, sandboxUser, test, type BridgeCaller } from './fixtures';
import { readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Locator, Page } from '@playwright/test';
import { runCli } from '../cli/run-cli';
import { jobPaths } from '../core/batch/job-files';
import { createJob } from '../core/batch/journal';
import type { BatchJobSummary } from '../shared/batch';
import { plainUids, setLatency } from './sandbox-helpers';
import { expectNoSeriousAxeViolations, saveScreenshot } from './support';

/**
 * What the Batch screen says must be true, in Chromium against the web host and a sandbox:
 * - a uid pasted with spaces at an end is drawn with them (␣) everywhere, is called a likely mistake
 *   when its trimmed form exists, and is sent trimmed only by the operator's explicit, recorded choice;
 * - the progress panel and the jobs table say the same state and counts, paused, running and finished.
 */

/** The outcomes cell of a row of the jobs table. */
const jobCounts = (row: Locator) => row.locator('td').nth(4);

/** The CLI on the host's data folder, with a desk of its own (another process, as far as the job files go). */
async function cli(dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' },
  });
  return { code, stdout, stderr };
}

/** `privacy-desk batch list --json` on the host's data folder. */
async function cliBatchList(dataDir: string): Promise<BatchJobSummary[]> {
  const { code, stdout } = await cli(dataDir, ['batch', 'list', '--json']);
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { jobs: BatchJobSummary[] }).jobs;
}

/** Starts anonymising twelve plain uids from the Batch screen at 1360×850, sessions left alone, each answer `latencyMs` late. */
async function startAnonymisingTwelve(app: Page, bridge: BridgeCaller, profileId: string, sandboxUrl: string, latencyMs: number): Promise<void> {
  const uids = await plainUids(bridge, profileId, 12);
  await setLatency(sandboxUrl, latencyMs);
  await app.setViewportSize({ width: 1360, height: 850 });
  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill(uids.join('\n'));
  await expect(app.getByText('Anonymise 12 users')).toBeVisible();
  await app.getByRole('checkbox', { name: 'End each user’s sessions first' }).uncheck();
  await app.getByLabel('Type ANONYMISE 12 to confirm').fill('ANONYMISE 12');
  await app.getByRole('button', { name: 'Start' }).click();
}

test('a uid pasted with spaces at an end: drawn as it is, called a likely mistake, sent trimmed only by choice, recorded', async ({ app, bridge, sandbox, profile, context, host }, testInfo) => {
  await createSandboxUser(sandbox, 'user-000490');
  const [first, second] = await plainUids(bridge, profile.id, 2);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: host.url });

  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill([first, ' user-000490 ', second].join('\n'));
  await expect(app.getByText('Anonymise 3 users')).toBeVisible();
  await app.getByRole('button', { name: 'Check against the service' }).click();

  // The check: " user-000490 " is not on the service, and it is drawn with its spaces, never as "user-000490".
  const missing = app.getByRole('heading', { name: 'Not on the service (first ones)' }).locator('xpath=following-sibling::ul[1]');
  await expect(missing.getByRole('listitem')).toHaveText(['␣user-000490␣']);
  await expect(missing.getByRole('img', { name: 'space (U+0020)' })).toHaveCount(2);
  // Copying it gives the real uid, not the marks.
  await missing.getByRole('listitem').first().evaluate((item) => {
    const range = document.createRange();
    range.selectNodeContents(item.querySelector('[data-uid-box]')!);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
  });
  await app.keyboard.press('Control+C');
  expect(await app.evaluate(() => navigator.clipboard.readText())).toBe(' user-000490 ');

  const callout = app.getByRole('region', { name: 'Likely mistake: spaces at an end' });
  await expect(callout).toContainText('1 uid begins or ends with spaces and is not on the service, but the same uid without them is.');
  await expect(callout.getByRole('listitem')).toHaveText('line 2 ␣user-000490␣ → user-000490');
  // Looked at in both sizes, both themes and in French; the marks' names reach assistive technology.
  await expectNoSeriousAxeViolations(app, testInfo, 'batch trimmable uids');
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      await app.setViewportSize(size);
      await saveScreenshot(app, testInfo, `batch-trimmable-${size.width}x${size.height}`, theme);
    }
  }
  await app.getByLabel('Language').selectOption('fr');
  await expect(app.getByRole('region', { name: 'Erreur probable\u00a0: des espaces au bord' })).toContainText('ligne 2 ␣user-000490␣ → user-000490');
  await saveScreenshot(app, testInfo, 'batch-trimmable-fr-1024x700', 'dark');
  await app.getByLabel('Langue').selectOption('en');
  await app.emulateMedia({ colorScheme: 'light' });
  await app.setViewportSize({ width: 1360, height: 850 });
  await callout.getByRole('button', { name: 'Use the trimmed uid' }).click();
  await expect(callout.getByText(/^Your choice: the trimmed uid is sent instead of the one pasted\./)).toBeVisible();
  // Said of the uids as they will be sent: all three exist, none is listed as ending "not found", the list shows the trimmed uid.
  await expect(app.locator('.batch-check__result > p').first()).toHaveText(/^All 3 uids exist on the service\. As sent, with the trimmed uids you chose\. \(/);
  await expect(app.getByRole('heading', { name: 'Not on the service (first ones)' })).toHaveCount(0);
  await expect(app.locator('.batch-ends__list').first().getByRole('listitem')).toHaveText([first!, 'user-000490', second!]);

  await app.getByLabel('Type ANONYMISE 3 to confirm').fill('ANONYMISE 3');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByText('Batch finished: all 3 items have their outcome')).toBeVisible({ timeout: 30_000 });
  const table = app.getByRole('table', { name: /^Results of batch / });
  const row = table.locator('tbody tr').filter({ hasText: 'pasted as' });
  await expect(row.locator('.batch-results__uid')).toHaveText('user-000490pasted as ␣user-000490␣ · trimmed by your choice');
  await expect(row).toContainText('Done');
  expect((await sandboxUser(sandbox, 'user-000490')).state).toBe('anonymized');
  await saveScreenshot(app, testInfo, 'batch-trimmed-results', 'light');

  // The audit trail records the uid as pasted on each entry of that item, and the audit view shows it.
  const reading = await bridge('audit.read', {});
  if (!reading.ok) throw new Error(reading.error.message);
  const ofItem = reading.value.entries.filter((entry) => entry.uid === 'user-000490' && entry.via === 'batch');
  expect(ofItem.length).toBeGreaterThanOrEqual(2);
  expect(ofItem.every((entry) => entry.pastedUid === ' user-000490 ')).toBe(true);
  await app.getByRole('tab', { name: 'Audit trail' }).click();
  await app.getByRole('search', { name: 'Filter the audit trail' }).getByLabel('uid', { exact: true }).fill('user-000490');
  await expect(app.getByRole('table', { name: 'Audit trail entries' }).getByRole('row').filter({ hasText: 'pasted as' }).first()).toContainText('␣user-000490␣');
});

test('without the choice, the results say "not found" of " user-000490 " drawn with its spaces, and user-000490 keeps its data', async ({ app, bridge, sandbox, profile }) => {
  await createSandboxUser(sandbox, 'user-000490');
  const [first] = await plainUids(bridge, profile.id, 1);
  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill([first, ' user-000490 '].join('\n'));
  await expect(app.getByText('Anonymise 2 users')).toBeVisible();
  await app.getByLabel('Type ANONYMISE 2 to confirm').fill('ANONYMISE 2');
  await app.getByRole('button', { name: 'Start' }).click();
  await expect(app.getByText('Batch finished: all 2 items have their outcome')).toBeVisible({ timeout: 30_000 });
  const row = app.getByRole('table', { name: /^Results of batch / }).locator('tbody tr').filter({ hasText: 'user-000490' });
  await expect(row.locator('.batch-results__uid')).toHaveText('␣user-000490␣');
  await expect(row).toContainText('Not found (already erased or never existed)');
  expect((await sandboxUser(sandbox, 'user-000490')).state).toBe('active');
});

test('the progress panel and the jobs table say the same state and counts: running, paused, resumed, finished', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  test.slow(true, 'a batch against a sandbox slowed down so that the run can be paused');
  await startAnonymisingTwelve(app, bridge, profile.id, sandbox.url, 400);

  const panel = app.getByRole('region', { name: 'Progress' });
  const jobRow = app.getByRole('table', { name: 'Batches on this computer' }).locator('tbody tr').first();
  const panelDone = panel.getByText('Done', { exact: true }).locator('xpath=following-sibling::dd[1]');
  await expect(jobRow.locator('.tag')).toHaveText('Running');
  await expect(panel.locator('.batch-state')).toContainText('Running');

  await panel.getByRole('button', { name: 'Pause' }).click();
  await expect(panel.getByText(/Paused since .+: nothing new is sent until you resume\.$/)).toBeVisible();
  await expect(jobRow.locator('.tag')).toHaveText('Paused');
  // Paused, the figures stop once the items in flight have ended: then both say the same number done.
  await expect(panel.getByText('In flight', { exact: true }).locator('xpath=following-sibling::dd[1]')).toHaveText('0', { timeout: 15_000 });
  const pausedDone = Number(await panelDone.textContent());
  await expect(jobCounts(jobRow)).toHaveText(new RegExp(`^${pausedDone} done · `));
  expect(pausedDone).toBeLessThan(12);
  // The CLI is a screen too: its batch list, reading the same data folder with a desk of its own, says paused, with the same count done.
  const [listed] = await cliBatchList(dataDir);
  expect(listed).toMatchObject({ state: 'paused', counts: { done: pausedDone } });
  // Paused: nothing is being sent, so no rate and no time left are given.
  await expect(panel.getByText('Time left', { exact: true })).toHaveCount(0);
  await expect(panel.getByText('Rate', { exact: true })).toHaveCount(0);
  // The CLI will not resume it, and says why: it is paused in the console.
  const refused = await cli(dataDir, ['batch', 'resume', listed!.batchId, '--yes', `ANONYMISE ${12 - pausedDone}`]);
  expect(refused.code).toBe(2);
  // Named: the process that has it paused, on this computer, since when, and its lock.
  expect(refused.stderr).toMatch(new RegExp(`Batch ${listed!.batchId} is paused by process \\d+ on this computer \\(.+\\) since .+, holding the lock .+run\\.lock: resume it there`));
  await saveScreenshot(app, testInfo, 'batch-paused-agree', 'light');
  await app.emulateMedia({ colorScheme: 'dark' });
  await app.setViewportSize({ width: 1024, height: 700 });
  await saveScreenshot(app, testInfo, 'batch-paused-agree-1024x700', 'dark');
  await app.emulateMedia({ colorScheme: 'light' });
  await app.setViewportSize({ width: 1360, height: 850 });
  // A reload reads the job from the core: still paused, the same counts.
  await app.reload();
  await app.getByRole('tab', { name: 'Batch' }).click();
  const reloadedRow = app.getByRole('table', { name: 'Batches on this computer' }).locator('tbody tr').first();
  await expect(reloadedRow.locator('.tag')).toHaveText('Paused');
  await expect(jobCounts(reloadedRow)).toHaveText(new RegExp(`^${pausedDone} done · `));
  await app.getByRole('list', { name: 'Batches to resume' }).getByRole('button', { name: 'Follow' }).click();
  await expect(panel.getByText(/Paused since .+: nothing new is sent until you resume\.$/)).toBeVisible();
  await expect(panelDone).toHaveText(String(pausedDone));

  await setLatency(sandbox.url, 0);
  await panel.getByRole('button', { name: 'Resume' }).click();
  await expect(app.getByText('Batch finished: all 12 items have their outcome')).toBeVisible({ timeout: 60_000 });
  await expect(reloadedRow.locator('.tag')).toHaveText('Finished');
  await expect(jobCounts(reloadedRow)).toHaveText(/^12 done · /);
  await expect(app.getByRole('list', { name: 'Items by outcome' }).locator('.batch-outcome--done .batch-outcome__count')).toHaveText('12');
});

test('stopping: the panel, the jobs table and the CLI say Stopping while the items in flight finish, then Unfinished, the same counts', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  test.slow(true, 'a batch against a slow sandbox, cancelled while items are in flight');
  await startAnonymisingTwelve(app, bridge, profile.id, sandbox.url, 4000);

  const panel = app.getByRole('region', { name: 'Progress' });
  const jobRow = app.getByRole('table', { name: 'Batches on this computer' }).locator('tbody tr').first();
  await expect(panel.getByText('In flight', { exact: true }).locator('xpath=following-sibling::dd[1]')).not.toHaveText('0');
  await panel.getByRole('button', { name: 'Cancel batch' }).click();
  await expect(panel.getByText('Stopping: the items in flight finish, nothing more is sent.')).toBeVisible();
  await expect(jobRow.locator('.tag')).toHaveText('Stopping');
  await expect(panel.getByText('Time left', { exact: true })).toHaveCount(0);
  const [listed] = await cliBatchList(dataDir);
  expect(listed).toMatchObject({ state: 'stopping' });
  const refused = await cli(dataDir, ['batch', 'resume', listed!.batchId, '--yes', 'ANONYMISE 12']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(new RegExp(`Batch ${listed!.batchId} is stopping: it was cancelled in process \\d+ on this computer`));
  await saveScreenshot(app, testInfo, 'batch-stopping-agree', 'light');

  await expect(app.getByText(/^Batch stopped: \d+ of 12 items unfinished$/)).toBeVisible({ timeout: 30_000 });
  await expect(jobRow.locator('.tag')).toHaveText('Unfinished');
  const [after] = await cliBatchList(dataDir);
  expect(after).toMatchObject({ state: 'unfinished' });
  await expect(jobCounts(jobRow)).toHaveText(new RegExp(`^${after!.counts.done} done · `));
});

test('a damaged job: listed as damaged with its file, why and what to do, never offered for resuming; in both languages, sizes and themes', async ({ app, sandbox, profile, dataDir }, testInfo) => {
  // A job whose plan was changed outside Privacy Desk (the British spelling of its operation).
  const journal = await createJob(dataDir, { action: 'delete', profileId: profile.id, profileName: profile.name, baseUrl: sandbox.url, logoutFirst: true, total: 2, source: 'closures.csv' });
  await journal.appendItems([{ line: 1, uid: 'user-1' }, { line: 2, uid: 'user-2' }]);
  await journal.finishItems();
  await journal.close();
  const plan = jobPaths(dataDir, journal.jobId).plan;
  writeFileSync(plan, readFileSync(plan, 'utf8').replace('"delete"', '"anonymise"'));

  await app.getByRole('tab', { name: 'Batch' }).click();
  const damaged = app.getByRole('region', { name: 'Damaged batches: nothing more will be sent from them' });
  await expect(damaged).toContainText(`${plan} cannot be used (a field is not as Privacy Desk writes it), so batch job ${journal.jobId} cannot be resumed: nothing more will be sent from it.`);
  await expect(damaged).toContainText('action: ');
  await expect(damaged.getByRole('button')).toHaveCount(0);
  await expect(app.getByRole('list', { name: 'Batches to resume' })).toHaveCount(0);
  await expectNoSeriousAxeViolations(app, testInfo, 'batch damaged job');

  for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
    await app.setViewportSize(size);
    for (const language of ['fr', 'en'] as const) {
      await app.getByRole('combobox', { name: /^(Language|Langue)$/ }).selectOption(language);
      if (language === 'fr') await expect(app.getByRole('region', { name: 'Lots abîmés\u00a0: plus rien ne sera envoyé depuis ces lots' })).toContainText('ne peut pas reprendre\u00a0: plus rien ne sera envoyé depuis ce lot');
      for (const theme of ['light', 'dark'] as const) {
        await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await saveScreenshot(app, testInfo, `batch-damaged${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`, theme);
      }
    }
  }
});
