import { readFile } from 'node:fs/promises';
import { createSandboxUser, expect, sandboxUser, test } from './fixtures';
import { saveScreenshot } from './support';

/**
 * Reconciling with the client application in the console, against the real web host and a sandbox: the
 * application's list opened as a file, the sets counted, the orphans sent to a batch (its preview, the typed
 * count, Start), erased; a user that differs from the application's uid only by spaces is never among them.
 */

/** On the sandbox, not in the application: awkward on purpose (a slash, capitals, a percent sign, CJK). */
const ORPHANS = ['Orphan/One', '100%gone', '孤児ユーザー'];

test('the application’s list against the service: counts, near matches held apart, the orphans to a batch and erased', async ({ app, bridge, sandbox, profile }, testInfo) => {
  for (const uid of [...ORPHANS, ' padded ', 'cafe\u0301']) await createSandboxUser(sandbox, uid);
  const onService: string[] = [];
  for (let page = 1; ; page += 1) {
    const listed = await bridge('users.list', { profileId: profile.id, page, perPage: 100 });
    if (!listed.ok) throw new Error(listed.error.message);
    onService.push(...listed.value.users.flatMap((user) => (user.uid === null ? [] : [user.uid])));
    if (!listed.value.hasNext) break;
  }
  expect(onService).toHaveLength(65);
  // The application: every uid but the orphans; " padded " written without its spaces, the NFD "café" in NFC; one it alone has.
  const rewritten: Record<string, string> = { ' padded ': 'padded', 'cafe\u0301': 'caf\u00e9' };
  const application = [...onService.filter((uid) => !ORPHANS.includes(uid)).map((uid) => rewritten[uid] ?? uid), 'left-the-service'];

  await app.getByRole('tab', { name: 'Reconcile' }).click();
  await expect(app.getByTestId('reconcile-rule')).toContainText('compared exactly, character for character after Unicode NFC');
  await app.getByTestId('reconcile-file').setInputFiles({ name: 'app-users.txt', mimeType: 'text/plain', buffer: Buffer.from(`${application.join('\n')}\n`) });
  await expect(app.getByText('File app-users.txt', { exact: false })).toBeVisible();
  // Uids with commas are whole lines: the list is read as one uid a line.
  await app.getByLabel('Columns separated by').selectOption({ label: 'Nothing: one uid a line, each line whole' });
  await expect(app.getByTestId('reconcile-list-summary')).toHaveText(`${application.length} distinct uids read`);
  await app.getByRole('button', { name: 'Reconcile' }).click();

  await expect(app.getByRole('heading', { name: 'Result' })).toBeVisible();
  await expect(app.getByTestId('reconcile-count-orphans')).toHaveText('3Orphans');
  await expect(app.getByTestId('reconcile-count-missing')).toHaveText('1Missing');
  await expect(app.getByTestId('reconcile-count-nearMatches')).toHaveText('1Near matches');
  await expect(app.getByTestId('reconcile-count-inBoth')).toHaveText(`${65 - 3 - 1}In both`);
  const table = app.getByTestId('reconcile-table');
  await expect(table.locator('tbody tr')).toHaveCount(3);
  for (const uid of ORPHANS) await expect(table.locator('tbody tr').filter({ hasText: uid })).toHaveCount(1);
  await app.getByLabel('Filter').fill('orphan/');
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await app.getByLabel('Filter').fill('');
  await app.getByTestId('reconcile-count-nearMatches').click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr').first()).toContainText('spaces at an end');
  await app.setViewportSize({ width: 1360, height: 850 });
  await saveScreenshot(app, testInfo, 'reconcile-near-matches', 'light');

  const [download] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export JSON' }).click()]);
  const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { orphans: string[]; missing: string[]; reference: string };
  expect([...exported.orphans].sort()).toEqual([...ORPHANS].sort());
  expect(exported.missing).toEqual(['left-the-service']);

  await app.getByTestId('reconcile-count-orphans').click();
  await app.getByRole('button', { name: 'Send 3 orphans to a batch' }).click();
  await expect(app.getByRole('heading', { name: 'Batch erasure', level: 2 })).toBeVisible();
  await expect(app.getByLabel('Reference for the whole batch (optional)')).toHaveValue(exported.reference);
  await expect(app.getByText('Anonymise 3 users')).toBeVisible();
  const start = app.getByRole('button', { name: 'Start' });
  await expect(start).toBeDisabled();
  await app.getByLabel('Type ANONYMISE 3 to confirm').fill('ANONYMISE 3');
  await start.click();
  await expect(app.getByText('Batch finished: all 3 items have their outcome')).toBeVisible({ timeout: 60_000 });

  for (const uid of ORPHANS) expect((await sandboxUser(sandbox, uid)).state).toBe('anonymized');
  expect((await sandboxUser(sandbox, ' padded ')).state).toBe('active');
  const reading = await bridge('audit.read', {});
  if (!reading.ok) throw new Error(reading.error.message);
  for (const uid of ORPHANS) expect(reading.value.entries.some((entry) => entry.uid === uid && entry.outcome === 'done' && entry.reference === exported.reference), `a done act for ${uid} under ${exported.reference}`).toBe(true);

  // Reconciled again: no orphan left; the near match still held apart.
  await app.getByRole('tab', { name: 'Reconcile' }).click();
  await app.getByRole('button', { name: 'Reconcile' }).click();
  await expect(app.getByTestId('reconcile-count-orphans')).toHaveText('0Orphans');
  await expect(app.getByTestId('reconcile-count-nearMatches')).toHaveText('1Near matches');
});
