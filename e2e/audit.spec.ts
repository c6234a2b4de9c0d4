import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test, expect, createSandboxUser } from './fixtures';
import { anchorSettled, anonymiseThroughTheBridge } from './sandbox-helpers';
import { expectNoSeriousAxeViolations, openAudit, saveScreenshot } from './support';

/**
 * The Audit view over a real trail written by the real gate, with malformed
 * lines of each kind written into audit.jsonl around the good entries: the
 * view stays usable, shows each corrupt line with its number and every good
 * act, filters by a reference and exports what it shows.
 */

const lineCount = async (path: string) => (await readFile(path, 'utf8')).split('\n').filter(Boolean).length;

/** Every way a line can be unreadable, each on its own line, as a careless hand or a broken tool would leave it. */
function malformedLines(goodLine: string): string[] {
  const good = JSON.parse(goodLine) as Record<string, unknown>;
  return [
    'null',
    JSON.stringify('just a string'),
    JSON.stringify({ ...good, at: 1_763_800_000 }),
    goodLine.slice(0, Math.floor(goodLine.length / 2)),
    JSON.stringify({ ...good, outcome: 'exploded' }),
  ];
}

test('malformed lines of each kind leave the Audit view usable; filter by reference, export CSV and JSON, get the receipt', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  // A uid a spreadsheet would run as a formula: the CSV must neutralise it.
  const formulaUid = '@e2e-alice';
  for (const uid of [formulaUid, 'e2e-bob', 'e2e-carol']) await createSandboxUser(sandbox, uid);

  await anonymiseThroughTheBridge(bridge, profile.id, formulaUid, 'REQ-42');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-bob', 'REQ-43');
  const before = await lineCount(auditPath);
  const lastGood = (await readFile(auditPath, 'utf8')).trimEnd().split('\n').at(-1)!;
  const bad = malformedLines(lastGood);
  await appendFile(auditPath, `${bad.join('\n')}\n`);
  const badLines = bad.map((_, index) => before + index + 1);
  // A good act after the damage: new entries never land on a bad line.
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-carol', 'REQ-44');

  const table = await openAudit(app);
  // Act rows only: a corrupt row's excerpt may quote a uid.
  const rows = table.getByRole('row').filter({ hasNotText: 'Corrupt entry' });
  for (const line of badLines) await expect(table.getByText(`Corrupt entry, line ${line}:`, { exact: true })).toBeVisible();
  for (const uid of [formulaUid, 'e2e-bob', 'e2e-carol']) await expect(rows.filter({ hasText: uid })).toHaveCount(1);
  await expect(app.getByText(`5 lines could not be read (lines ${badLines.join(', ')})`, { exact: false })).toBeVisible();
  await expect(app.getByTestId('integrity')).toContainText(`Chain broken at line ${badLines[0]}: a line cannot be read`);
  // The page did not fail: no error boundary, the navigation works.
  await expect(app.getByText('could not be shown')).toHaveCount(0);

  await app.setViewportSize({ width: 1360, height: 850 });
  await saveScreenshot(app, testInfo, 'audit-corrupt', 'light');

  // Filter by the reference, as a DPO with a ticket would.
  await app.getByRole('search', { name: 'Filter the audit trail' }).getByLabel('Reference').fill('req-42');
  await expect(app.getByText('1 act matches', { exact: false })).toBeVisible();
  await expect(rows.filter({ hasText: 'e2e-bob' })).toHaveCount(0);
  await expect(rows.filter({ hasText: formulaUid })).toHaveCount(1);

  const [csv] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^privacy-desk-audit-.*\.csv$/);
  const csvText = await readFile((await csv.path())!, 'utf8');
  expect(csvText).toContain(`'${formulaUid}`);
  expect(csvText).not.toMatch(new RegExp(`(^|,)${formulaUid}`, 'm'));
  expect(csvText).toContain('REQ-42');
  expect(csvText).not.toContain('e2e-bob');

  const [json] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: 'Export JSON' }).click()]);
  const exported = JSON.parse(await readFile((await json.path())!, 'utf8')) as { headHash: string | null; entries: Array<{ uid: string; reference?: string }> };
  expect(exported.headHash).toMatch(/^[0-9a-f]{64}$/);
  expect(exported.entries.length).toBeGreaterThan(0);
  expect(exported.entries.every((entry) => entry.uid === formulaUid && entry.reference === 'REQ-42')).toBe(true);
  // The head hash the window shows is the one the export carries.
  await expect(app.getByTestId('integrity').locator('[data-head-hash]')).toHaveAttribute('data-head-hash', exported.headHash!);
  await expect(app.getByText(/Exported \d+ entries as privacy-desk-audit-.*\.json/)).toBeVisible();

  // And the receipt for that reference, from the same toolbar: the acceptance a newcomer must manage alone.
  const [receipt] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: /^Receipt — PDF receipt of every act under the reference req-42$/ }).click()]);
  expect(receipt.suggestedFilename()).toMatch(/\.pdf$/);
  expect((await readFile((await receipt.path())!)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test('the Audit view in both themes at two window sizes', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  for (const [uid, reference] of [['e2e-dora', 'REQ-50'], ['e2e-eve', 'REQ-51']] as const) {
    await createSandboxUser(sandbox, uid);
    await anonymiseThroughTheBridge(bridge, profile.id, uid, reference);
  }
  await appendFile(join(dataDir, 'audit.jsonl'), 'null\n');
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await openAudit(app);
      await expect(app.getByText('Corrupt entry, line', { exact: false })).toBeVisible();
      await saveScreenshot(app, testInfo, `audit-${width}x${height}`, theme);
    }
    await expectNoSeriousAxeViolations(app, testInfo, `audit-${theme}`);
  }
});

test('a trail rolled back to an older copy: the integrity badge reports it from the keychain’s anchor, in both languages and themes', async ({ app, bridge, sandbox, profile, dataDir }, testInfo) => {
  const auditPath = join(dataDir, 'audit.jsonl');
  await createSandboxUser(sandbox, 'e2e-frank');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-frank', 'REQ-60');
  await openAudit(app);
  await expect(app.getByTestId('integrity-anchor')).toHaveAttribute('data-anchor-store', 'keychain');
  const older = await readFile(auditPath, 'utf8');
  await createSandboxUser(sandbox, 'e2e-grace');
  await anonymiseThroughTheBridge(bridge, profile.id, 'e2e-grace', 'REQ-61');
  // The file replaced by the older copy: the chain in it is intact, only the anchor can tell (once told the last write landed).
  await anchorSettled(dataDir);
  await writeFile(auditPath, older);
  await app.getByRole('button', { name: 'Refresh' }).click();
  const badge = app.getByTestId('integrity');
  await expect(badge).toContainText('the trail ends before the head its anchor recorded (rolled back or deleted)');
  await expect(badge).toContainText('The last 6 entries were removed: the trail ends at entry 6, but the keychain’s anchor held entry 12');
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await saveScreenshot(app, testInfo, `audit-anchor-${width}x${height}`, theme);
    }
  }
  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(badge).toContainText('le journal s’arrête avant la tête enregistrée par son ancre');
  await expect(app.getByTestId('integrity-anchor')).toContainText('Ancré dans le trousseau de cet ordinateur');
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    await app.setViewportSize({ width: 1024, height: 700 });
    await saveScreenshot(app, testInfo, 'audit-anchor-fr-1024x700', theme);
  }
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

test('50,000 entries open and scroll in Chromium, only a window of rows in the page', async ({ app, dataDir }, testInfo) => {
  // Lines as an older Privacy Desk wrote them (readable, unchained): 50,000 acts of one entry each.
  const lines = Array.from({ length: 50_000 }, (_, index) =>
    JSON.stringify({ at: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(), action: 'delete', outcome: 'done', uid: `bulk-${index + 1}`, reference: `BULK-${index + 1}`, profileId: 'old', profileName: 'Old profile', baseUrl: 'http://127.0.0.1:1', via: 'cli', status: 200 }),
  );
  await writeFile(join(dataDir, 'audit.jsonl'), `${lines.join('\n')}\n`);

  const table = await openAudit(app);
  await expect(table).toHaveAttribute('aria-rowcount', '50001');
  await expect(table.getByRole('row').nth(1)).toContainText('bulk-50000');
  expect(await table.getByRole('row').count()).toBeLessThan(80);

  // Scroll to the end: the oldest act shows, the newest is gone from the page.
  await table.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
  await expect(table.locator('[role="row"][data-line="1"]')).toContainText('bulk-1');
  await expect(table.getByRole('row').filter({ hasText: 'bulk-50000' })).toHaveCount(0);
  expect(await table.getByRole('row').count()).toBeLessThan(80);
  // The header row stays on top while the rows scroll.
  await expect(table.getByRole('columnheader', { name: 'Reference' })).toBeInViewport();
  await app.setViewportSize({ width: 1360, height: 850 });
  await saveScreenshot(app, testInfo, 'audit-50000-scrolled', 'light', { fullPage: false });

  // The filter is the shared rule over all of them.
  await app.getByRole('search', { name: 'Filter the audit trail' }).getByLabel('Reference').fill('bulk-25000');
  await expect(app.getByText('1 act matches (of 50000 entries)')).toBeVisible();
});
