import { fileURLToPath } from 'node:url';
import { createSandboxUser, expect, sandboxUser, test } from './fixtures';
import { expectNoSeriousAxeViolations, saveScreenshot } from './support';

/** A CSV saved by a French Excel: semicolons, a BOM, CRLF (`uid;référence` / `user-000070;DSR-1` / `user-000071;DSR-2`). */
const EXCEL_FR = fileURLToPath(new URL('../tests/integration/fixtures/excel-fr.csv', import.meta.url));

/**
 * The Batch screen reads a semicolon CSV as CSV with its columns (never its header row as a uid), lets the
 * operator say what separates the columns, and calls out uids that only look like one on the service.
 */
test('a French Excel CSV is read with its columns, and rows read whole are refused until the separator is chosen', async ({ app, sandbox }, testInfo) => {
  await createSandboxUser(sandbox, 'user-000070');
  await createSandboxUser(sandbox, 'user-000071');
  await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await app.getByRole('tab', { name: 'Par lot' }).click();

  await app.locator('input[type=file]').setInputFiles(EXCEL_FR);
  await expect(app.getByText('Anonymiser 2 utilisateurs')).toBeVisible();
  await expect(app.getByText('(CSV, séparé par des points-virgules)')).toBeVisible();
  await expect(app.getByLabel('Colonne des uid')).toBeVisible();
  await app.getByLabel('Colonne de référence (facultatif)').selectOption('référence');
  // The list is read again with its reference column (a new preview) before it is checked: a check of the old
  // preview would be dropped when the new one comes.
  await expect(app.getByText('Avec leur propre référence')).toBeVisible();
  await app.getByRole('button', { name: 'Vérifier auprès du service' }).click();
  await expect(app.locator('.batch-check__result')).toContainText(/2 uid/);
  await expect(app.locator('.batch-check__missing')).toHaveCount(0);
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await saveScreenshot(app, testInfo, `batch-excel-fr-${width}x${height}`, theme);
    }
  }
  await expectNoSeriousAxeViolations(app, testInfo, 'batch-excel-fr');

  // The same rows without their header: the guess would read each line whole, so it refuses and says what to choose.
  await app.getByRole('button', { name: 'Coller une liste à la place' }).click();
  await app.getByLabel('uid à effacer').fill('DSR-1;user-000070\nDSR-2;user-000071');
  await expect(app.getByRole('alert')).toContainText('2 lignes sur 2 contiennent un point-virgule');
  await app.emulateMedia({ colorScheme: 'light' });
  await saveScreenshot(app, testInfo, 'batch-rows-refused-fr-1024x700', 'light');
  await app.getByLabel('Colonnes séparées par').selectOption('semicolon');
  await app.getByLabel('Colonne des uid').selectOption({ index: 2 });
  await expect(app.getByText('Anonymiser 2 utilisateurs')).toBeVisible();
  await expect(app.locator('.batch-ends__list').first()).toContainText('user-000070');
  expect((await sandboxUser(sandbox, 'user-000070')).state).toBe('active');
  await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
});

test('uids that differ from one on the service only in capitals or an invisible character are called out with it', async ({ app, sandbox }, testInfo) => {
  await createSandboxUser(sandbox, 'marie.curie@example.org');
  await app.getByRole('tab', { name: 'Batch' }).click();
  await app.getByLabel('uids to erase').fill(['Marie.Curie@example.org', 'ZOË.MÜLLER', 'jean\u00a0dupont'].join('\n'));
  await expect(app.getByText('Anonymise 3 users')).toBeVisible();
  await app.getByRole('button', { name: 'Check against the service' }).click();
  const callout = app.getByRole('region', { name: 'Likely mistake: a uid on the service looks the same' });
  await expect(callout.getByRole('listitem')).toHaveText([
    'line 1 Marie.Curie@example.org — on the service: marie.curie@example.org (capitals or accents differ)',
    'line 2 ZOË.MÜLLER — on the service: zoë.müller (capitals or accents differ)',
    /^line 3 jean.*dupont — on the service: jean.*dupont \(invisible characters differ\)$/,
  ]);
  await expect(callout.getByRole('button')).toHaveCount(0);
  for (const theme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: theme });
    for (const [width, height] of [[1360, 850], [1024, 700]] as const) {
      await app.setViewportSize({ width, height });
      await callout.scrollIntoViewIfNeeded();
      await saveScreenshot(app, testInfo, `batch-lookalikes-${width}x${height}`, theme, { fullPage: false });
    }
  }
  await expectNoSeriousAxeViolations(app, testInfo, 'batch-lookalikes');
});
