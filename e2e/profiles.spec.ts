import { test, expect, uniqueName, waitForConsole } from './fixtures';

test.describe('profiles', () => {
  test('a profile created through the form passes all three connection checks', async ({ page, host, sandbox, bridge }) => {
    const name = uniqueName('City portal');
    await page.goto(host.url);
    await waitForConsole(page);
    await page.getByRole('tab', { name: 'Profiles' }).click();
    await page.getByRole('button', { name: 'Add profile' }).click();

    const dialog = page.getByRole('dialog', { name: 'Add a profile' });
    await dialog.getByLabel('Profile name').fill(name);
    await dialog.getByLabel('Base URL').fill(sandbox.url);
    await dialog.getByLabel('Application name').fill(sandbox.credentials.applicationName);
    await dialog.getByLabel('API key', { exact: true }).fill(sandbox.credentials.apiKey);
    await dialog.getByLabel('Secret key').fill(sandbox.credentials.apiSecret);
    await dialog.getByRole('button', { name: 'Save profile' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').getByText(`Profile “${name}” saved.`)).toBeVisible();

    const card = page.getByRole('article', { name });
    await expect(card).toBeVisible();
    await expect(card).toContainText('System keychain');
    await card.getByRole('button', { name: 'Test connection' }).click();
    const checks = card.getByRole('list', { name: `Connection test for ${name}` }).getByRole('listitem');
    await expect(checks).toHaveCount(3);
    for (const step of ['Token with “authentication” scope', 'Token with “public” scope', 'List users']) {
      await expect(checks.filter({ hasText: step })).toContainText('Passed');
    }
    await expect(checks.filter({ hasText: 'Failed' })).toHaveCount(0);

    // Saved through the real keychain: the bridge reports it there, and the secret never comes back.
    const listed = await bridge('profiles.list', {});
    expect(listed.ok && listed.value.profiles.find((p) => p.name === name)?.credentialStorage).toBe('keychain');
    expect(JSON.stringify(listed)).not.toContain(sandbox.credentials.apiSecret);
    const saved = listed.ok ? listed.value.profiles.find((p) => p.name === name) : undefined;
    if (saved) await bridge('profiles.remove', { id: saved.id, confirmName: name });
  });

  test('wrong credentials show INVALID_CREDENTIALS with its advice in Test connection and in the users view', async ({ page, host, sandbox, bridge }) => {
    const name = uniqueName('Wrong keys');
    const saved = await bridge('profiles.save', {
      name,
      baseUrl: sandbox.url,
      applicationName: sandbox.credentials.applicationName,
      apiKey: 'not-the-api-key',
      apiSecret: 'not-the-secret-key-at-all',
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    await bridge('profiles.setActive', { id: saved.value.id });
    try {
      await page.goto(host.url);
      await waitForConsole(page);

      // Users view (the default tab): the list cannot load.
      const usersError = page.getByRole('alert').filter({ hasText: 'The users could not be loaded' });
      await expect(usersError).toBeVisible();
      await expect(usersError).toContainText('INVALID_CREDENTIALS');
      await expect(usersError).toContainText(/refused the API key|API key or secret key was refused/);
      await expect(usersError).toContainText('Check');

      await page.getByRole('tab', { name: 'Profiles' }).click();
      const card = page.getByRole('article', { name });
      await card.getByRole('button', { name: 'Test connection' }).click();
      const checks = card.getByRole('list', { name: `Connection test for ${name}` }).getByRole('listitem');
      const failedToken = checks.filter({ hasText: 'Token with “authentication” scope' });
      await expect(failedToken).toContainText('Failed');
      await expect(failedToken).toContainText('INVALID_CREDENTIALS');
      await expect(failedToken).toContainText('The API key or secret key was refused.');
      await expect(checks.filter({ hasText: 'Passed' })).toHaveCount(0);
    } finally {
      await bridge('profiles.remove', { id: saved.value.id, confirmName: name });
    }
  });
});
