import { readFile } from 'node:fs/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { test, expect, sandboxUser, uniqueName } from './fixtures';
import { expectNoSeriousAxeViolations, photograph } from './support';

const UID = 'alice@example.org';

test.describe('logout conformance run', () => {
  test('against the sandbox: every case with its verdict, filtered, a defect found once a docs rule is broken, exported as valid JUnit', async ({ app, sandbox }) => {
    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill(UID);
    const section = app.getByRole('region', { name: 'Conformance run' });
    await expect(section).toContainText('On the sandbox a session is opened before each token');

    // The sandbox as it behaves by default: the docs' rules met; the OIDC checks it skips are notes.
    await section.getByRole('button', { name: 'Run the conformance checks' }).click();
    const rows = section.getByTestId('conformance-row');
    await expect(rows).toHaveCount(19);
    await expect(section.getByRole('status')).toContainText('Every rule of the service’s docs is met.');
    await expect(section.getByRole('status')).toContainText('Conformant: 11 · not conformant: 8 · inconclusive: 0');
    await expect(rows.and(app.locator('[data-case="valid"]'))).toHaveAttribute('data-verdict', 'conformant');
    await expect(rows.and(app.locator('[data-case="valid"]'))).toContainText('accepted (200); the sessions ended');
    await expect(rows.and(app.locator('[data-case="alg-none"]'))).toContainText('refused (400); the sessions stayed open');
    await expect(rows.and(app.locator('[data-case="alg-none"]'))).toContainText('The service said: “The logout token algorithm "none" is not accepted');
    await expect(rows.and(app.locator('[data-case="no-events"]'))).toHaveAttribute('data-verdict', 'not-conformant');

    await section.getByRole('combobox', { name: 'Verdict' }).selectOption('not-conformant');
    await expect(rows).toHaveCount(8);
    await section.getByRole('combobox', { name: 'Source' }).selectOption('service-docs');
    await expect(rows).toHaveCount(0);
    await expect(section).toContainText('No case matches these filters.');
    await section.getByRole('combobox', { name: 'Source' }).selectOption('');
    await section.getByRole('combobox', { name: 'Verdict' }).selectOption('');
    await expect(rows).toHaveCount(19);

    // A sandbox that accepts unsigned tokens breaks a rule of the service's docs: a defect.
    sandbox.setVariants({ logoutLapses: ['alg-none'] });
    await section.getByRole('button', { name: 'Run the conformance checks' }).click();
    await expect(section.getByRole('status')).toContainText('A rule of the service’s docs is not met: a defect to report.');
    await expect(rows.and(app.locator('[data-case="alg-none"]'))).toHaveAttribute('data-verdict', 'not-conformant');
    await expect(rows.and(app.locator('[data-case="alg-none"]'))).toContainText('accepted (200); the sessions ended');
    // The sandbox proves it: the last case left a session open, the unsigned token had ended one.
    expect((await sandboxUser(sandbox, UID)).sessionCount).toBeGreaterThan(0);

    const exports = section.getByRole('group', { name: 'Export' });
    const [junit] = await Promise.all([app.waitForEvent('download'), exports.getByRole('button', { name: 'JUnit XML' }).click()]);
    expect(junit.suggestedFilename()).toMatch(/^logout-conformance-\d{4}-\d{2}-\d{2}\.xml$/);
    const xml = await readFile((await junit.path())!, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { '@_tests': string; '@_failures': string } };
    expect(parsed.testsuites['@_tests']).toBe('19');
    expect(xml).toMatch(/<testcase classname="logout-conformance\.service-docs" name="alg-none: [^"]*">\s*<failure type="service-docs"/);
    const [csv] = await Promise.all([app.waitForEvent('download'), exports.getByRole('button', { name: 'CSV' }).click()]);
    expect((await readFile((await csv.path())!, 'utf8')).split('\r\n')).toHaveLength(21);
  });

  test('on live data: the uid typed again before anything is sent; the dialog photographed in both languages', async ({ app, bridge, sandbox }, testInfo) => {
    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    const live = await bridge('profiles.save', { name: uniqueName('E2E live'), baseUrl: 'https://debate.example.com', applicationName, apiKey, apiSecret });
    if (!live.ok) throw new Error(`Saving the live profile failed: ${live.error.message}`);
    try {
      await bridge('profiles.setActive', { id: live.value.id });
      await app.reload();
      await app.getByRole('tab', { name: 'Logout tester' }).click();
      await app.getByLabel('User uid').fill('jean dupont');
      const section = app.getByRole('region', { name: 'Conformance run' });
      await expect(section).toContainText('On this service sessions cannot be counted');
      await section.getByRole('button', { name: 'Run the conformance checks' }).click();
      const dialog = app.getByRole('dialog', { name: 'Run the conformance checks on live data?' });
      await expect(dialog).toContainText('The valid ones end the real sessions of jean␣dupont');
      await dialog.getByLabel('Type the uid to confirm').fill('jean dupont');
      await expect(dialog.getByRole('button', { name: 'Run on live data' })).toBeEnabled();
      await expectNoSeriousAxeViolations(app, testInfo, 'conformance live confirm');
      await photograph(app, testInfo, 'logout-conformance-live-confirm', { awaitTheme: true, restoreSize: true });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
      await app.getByRole('region', { name: 'Série de conformité' }).getByRole('button', { name: 'Lancer les vérifications de conformité' }).click();
      const french = app.getByRole('dialog', { name: 'Lancer les vérifications de conformité sur des données réelles\u00a0?' });
      await expect(french).toContainText('Les jetons valides ferment les vraies sessions de jean␣dupont');
      await photograph(app, testInfo, 'logout-conformance-live-confirm-fr', { awaitTheme: true, restoreSize: true });
      await french.getByRole('button', { name: 'Annuler' }).click();
      // Nothing was sent: the trail holds no logout.
      const entries = await bridge('audit.list', { limit: 50 });
      if (!entries.ok) throw new Error(entries.error.message);
      expect(entries.value.entries.filter((entry) => entry.action === 'logout')).toEqual([]);
    } finally {
      await bridge('profiles.remove', { id: live.value.id, confirmName: live.value.name }).catch(() => undefined);
    }
  });
});
