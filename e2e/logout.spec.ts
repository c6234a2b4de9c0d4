import { test, expect, createSandboxUser, loginSandboxUser, sandboxUser } from './fixtures';

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
});
