import { test, expect, createSandboxUser, loginSandboxUser, sandboxUser, uniqueName, waitForConsole } from './fixtures';
import { closedPort } from './sandbox-helpers';
import { photograph, saveScreenshot } from './support';

const NEGATIVE_CASES = ['Wrong secret', 'alg: none', 'Expired', 'Missing sub', 'Wrong aud'] as const;

test.describe('logout tester', () => {
  test('a valid logout ends both sessions; every negative case is refused as expected', async ({ app, sandbox }) => {
    const uid = 'e2e logout ü+/?';
    await createSandboxUser(sandbox, uid, { sessions: 0 });
    await loginSandboxUser(sandbox, uid);
    expect(await loginSandboxUser(sandbox, uid)).toBe(2);

    // Reach the tester the way an operator does: from "Act on a uid".
    const box = app.getByRole('region', { name: 'Act on a uid' });
    await box.getByLabel('uid', { exact: true }).fill(uid);
    await box.getByRole('button', { name: 'Test logout' }).click();
    await expect(app.getByRole('heading', { name: 'Logout tester', level: 2 })).toBeVisible();
    await expect(app.getByLabel('User uid')).toHaveValue(uid);
    await expect(app.getByText('Active sessions: 2')).toBeVisible();

    await app.getByRole('button', { name: 'Send logout' }).click();
    const result = app.getByRole('region', { name: /Response · Valid token/ });
    await expect(result).toContainText('200 · Accepted');
    await expect(result).toContainText('Before: 2');
    await expect(result).toContainText('After: 0');
    expect((await sandboxUser(sandbox, uid)).sessionCount).toBe(0);

    const cases = app.getByRole('region', { name: 'Negative cases' });
    for (const name of NEGATIVE_CASES) {
      const item = cases.getByRole('listitem').filter({ has: app.getByRole('button', { name, exact: true }) });
      await item.getByRole('button', { name, exact: true }).click();
      await expect(item, `${name}: refused and marked as expected`).toContainText(/Actual: refused \(4\d\d\)/);
      await expect(item).toContainText('✓ as expected');
      await expect(item).not.toContainText('not as expected');
    }
  });

  test('the verify pane flags a token whose signature does not match', async ({ app, bridge, profile }) => {
    const a = await bridge('logout.preview', { profileId: profile.id, uid: 'alice@example.org', options: {} });
    const b = await bridge('logout.preview', { profileId: profile.id, uid: 'someone-else', options: {} });
    if (!a.ok || !b.ok) throw new Error('The bridge could not build preview tokens.');
    const [header, payload] = a.value.token.split('.');
    const forged = `${header}.${payload}.${b.value.token.split('.')[2]}`;

    await app.getByRole('tab', { name: 'Logout tester' }).click();
    const pane = app.getByRole('region', { name: 'Verify a token' });
    await pane.getByLabel('Token to verify').fill(forged);
    await pane.getByRole('button', { name: 'Verify token' }).click();
    const verdict = pane.getByRole('status');
    await expect(verdict).toContainText('Not valid');
    await expect(verdict.getByRole('listitem').first()).toBeVisible();

    // And the genuine token passes, so the pane is not simply refusing everything.
    await pane.getByLabel('Token to verify').fill(a.value.token);
    await pane.getByRole('button', { name: 'Verify token' }).click();
    await expect(verdict).toContainText('Valid token');
  });

  test('a negative case that meets a cut connection or a failing service is inconclusive, in its own state and the window’s language', async ({ app, sandbox }, testInfo) => {
    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill('alice@example.org');
    const cases = app.getByRole('region', { name: 'Negative cases' });
    const item = (name: string) => cases.getByRole('listitem').filter({ has: app.getByRole('button', { name, exact: true }) });

    // The sandbox cuts the connection without an answer: a real network error, not a refusal of the token.
    sandbox.setFaults({ dropRate: 1 });
    await item('Wrong secret').getByRole('button', { name: 'Wrong secret', exact: true }).click();
    await expect(item('Wrong secret').locator('[data-verdict="inconclusive"]')).toContainText('○ inconclusive');
    await expect(cases).toContainText('Inconclusive: the service did not judge the token');
    await expect(item('Wrong secret')).not.toContainText('as expected');
    const alert = app.getByRole('region', { name: /Response · Wrong secret/ }).getByRole('alert');
    await expect(alert).toContainText('failed during the request');
    // Node's own words never; the system's code only apart, marked as such.
    await expect(alert.locator('.error-panel__message')).not.toContainText(/fetch failed|other side closed|socket|UND_ERR|ECONN/i);
    await expect(alert.locator('.error-panel__quote')).toContainText('Technical detail, from the system:');

    // A failing service answers, but does not judge the token either.
    sandbox.setFaults({ dropRate: 0, errorRate: 1 });
    await item('Expired').getByRole('button', { name: 'Expired', exact: true }).click();
    await expect(item('Expired').locator('[data-verdict="inconclusive"]')).toBeVisible();
    await expect(item('Expired')).toContainText(/Actual: answered 5\d\d \(SERVER_ERROR\)/);

    // In French: the verdict, and the network error in French words, with the system's code apart.
    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    sandbox.setFaults({ errorRate: 0, dropRate: 1 });
    const casesFr = app.getByRole('region', { name: 'Cas négatifs' });
    const itemFr = (name: string) => casesFr.getByRole('listitem').filter({ has: app.getByRole('button', { name, exact: true }) });
    await itemFr('Mauvaise aud').getByRole('button', { name: 'Mauvaise aud', exact: true }).click();
    await expect(itemFr('Mauvaise aud').locator('[data-verdict="inconclusive"]')).toContainText('○ non concluant');
    await expect(casesFr).toContainText('Non concluant\u00a0: le service n’a pas jugé le jeton');
    const alertFr = app.getByRole('region', { name: /Réponse · Mauvaise aud/ }).getByRole('alert');
    await expect(alertFr).toContainText('a échoué pendant la requête');
    await expect(alertFr.locator('.error-panel__message')).not.toContainText(/fetch failed|failed|connection|request|socket/i);
    sandbox.setFaults({ dropRate: 0 });

    for (const size of [{ width: 1360, height: 850 }, { width: 1024, height: 700 }]) {
      await app.setViewportSize(size);
      for (const language of ['fr', 'en'] as const) {
        await app.getByRole('combobox', { name: /^(Language|Langue)$/ }).selectOption(language);
        for (const theme of ['light', 'dark'] as const) {
          await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
          await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
          await saveScreenshot(app, testInfo, `logout-inconclusive${language === 'fr' ? '-fr' : ''}-${size.width}x${size.height}`, theme);
        }
      }
    }
  });

  test('the verify pane explains a broken token in French, every problem in French words', async ({ app }, testInfo) => {
    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await app.getByRole('tab', { name: 'Test de déconnexion' }).click();
    const pane = app.getByRole('region', { name: 'Vérifier un jeton' });
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    await pane.getByLabel('Jeton à vérifier').fill(`${encode({ alg: 'none' })}.${encode({ sub: '', exp: 1_700_000_000, aud: 'autre-app' })}.`);
    await pane.getByRole('button', { name: 'Vérifier le jeton' }).click();
    const problems = pane.getByRole('listitem');
    await expect(problems).toHaveCount(4);
    await expect(problems.nth(0)).toHaveText('Le jeton n’est pas signé (alg «\u00a0none\u00a0»)\u00a0: le service refuse les jetons non signés. Signez-le avec la clé secrète (HS256).');
    for (const text of await problems.allInnerTexts()) expect(text, text).not.toMatch(/(?<!\p{L})(the|is|not|token|must|expired at|neither)(?!\p{L})/iu);
    for (const theme of ['light', 'dark'] as const) {
      await app.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
      await expect(app.locator('html')).toHaveAttribute('data-theme', theme);
      await saveScreenshot(app, testInfo, 'logout-verify-fr-1360x850', theme);
    }
  });
});

test.describe('logout tester: the badge follows the verdict', () => {
  test('200 {"success": false}, a 503 and a refusal inside a 200: the badge, the cases and the history say what each proves, in English and French', async ({ app, sandbox }, testInfo) => {
    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill('alice@example.org');
    const badge = app.getByTestId('logout-badge');

    // A valid token answered 200 {"success": false}: not green, not "Accepted".
    sandbox.setVariants({ logoutSuccessBody: 'success-false' });
    await app.getByRole('button', { name: 'Send logout' }).click();
    await expect(badge).toHaveText('○ 200 · Says it failed');
    await expect(badge).toHaveAttribute('data-verdict', 'inconclusive');
    sandbox.setVariants({ logoutSuccessBody: 'json' });

    const cases = app.getByRole('region', { name: 'Negative cases' });
    const item = (name: string) => cases.getByRole('listitem').filter({ has: app.getByRole('button', { name, exact: true }) });
    // A failing service: an answer, no verdict.
    sandbox.setFaults({ errorRate: 1 });
    await item('Expired').getByRole('button', { name: 'Expired', exact: true }).click();
    await expect(badge).toHaveText(/^○ 5\d\d · No verdict$/);
    sandbox.setFaults({ errorRate: 0 });

    // The service refuses the broken token in the body of a 200: inconclusive for that reason, no "send it again".
    sandbox.setVariants({ logoutErrorStatus: 200 });
    await item('Wrong secret').getByRole('button', { name: 'Wrong secret', exact: true }).click();
    await expect(item('Wrong secret')).toContainText('Actual: the body of a 200 says it failed');
    await expect(item('Wrong secret').locator('[data-verdict="inconclusive"]')).toContainText('○ inconclusive');
    await expect(cases).toContainText('Inconclusive: the service’s answer says the logout failed or was refused, but with HTTP 200, a status that says success.');
    await expect(badge).toHaveText('○ 200 · Says it failed');
    const history = app.getByRole('region', { name: 'This session’s tests' });
    await expect(history).toContainText('says it failed (200)');
    await photograph(app, testInfo, 'logout-says-failed', { awaitTheme: true, scrollTo: 'logout-badge' });

    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await expect(badge).toHaveText('○ 200 · Dit avoir échoué');
    await expect(app.getByRole('region', { name: 'Cas négatifs' })).toContainText('Non concluant\u00a0: la réponse du service dit que la déconnexion a échoué ou a été refusée');
    await photograph(app, testInfo, 'logout-says-failed-fr', { awaitTheme: true, scrollTo: 'logout-badge' });
    await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
    sandbox.setVariants({ logoutErrorStatus: 400 });
  });
});

test('on a live profile, a negative case asks with what it really risks, in English and French; Cancel sends nothing', async ({ app, bridge, profile }, testInfo) => {
  void profile;
  // https on an IPv4-mapped loopback address: live by the console's rule, yet nothing can leave this computer.
  const port = await closedPort();
  const liveName = uniqueName('E2E live');
  const saved = await bridge('profiles.save', { name: liveName, baseUrl: `https://[::ffff:127.0.0.1]:${port}`, applicationName: 'city-portal', apiKey: 'live-key-e2e', apiSecret: 'live-secret-e2e' });
  if (!saved.ok) throw new Error(saved.error.message);
  try {
    await bridge('profiles.setActive', { id: saved.value.id });
    await app.reload();
    await waitForConsole(app);
    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill('jean dupont');
    await app.getByRole('region', { name: 'Negative cases' }).getByRole('button', { name: 'Wrong secret', exact: true }).click();
    const confirm = app.getByRole('dialog', { name: 'Send a broken logout token to live data?' });
    await expect(confirm).toContainText('This sends a deliberately broken token (Wrong secret) for jean␣dupont to [::ffff:7f00:1]');
    await expect(confirm).toContainText('The service should refuse it and end no session; if it accepts it, the real sessions of jean␣dupont end, and that cannot be undone.');
    await expect(confirm).not.toContainText('This ends real sessions');
    await photograph(app, testInfo, 'logout-live-negative-confirm', { awaitTheme: true });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await app.getByRole('combobox', { name: 'Language' }).selectOption('fr');
    await app.getByRole('region', { name: 'Cas négatifs' }).getByRole('button', { name: 'Mauvais secret', exact: true }).click();
    const confirmFr = app.getByRole('dialog', { name: 'Envoyer un jeton de déconnexion cassé aux données réelles\u00a0?' });
    await expect(confirmFr).toContainText('Le service doit le refuser et ne mettre fin à aucune session');
    await photograph(app, testInfo, 'logout-live-negative-confirm-fr', { awaitTheme: true });
    await confirmFr.getByRole('button', { name: 'Annuler' }).click();
    await app.getByRole('combobox', { name: 'Langue' }).selectOption('en');
    await expect(app.getByRole('region', { name: /Response/ })).toHaveCount(0);
  } finally {
    await bridge('profiles.remove', { id: saved.value.id, confirmName: liveName }).catch(() => undefined);
  }
});
