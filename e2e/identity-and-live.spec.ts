import { test, expect, uniqueName, waitForConsole } from './fixtures';
import { closedPort } from './sandbox-helpers';
import { photograph, saveScreenshot } from './support';

/**
 * Who a uid belongs to in the erasure dialog, the unseen-uid path
 * (no countdown), the light confirmations on live data, and the logout tester's real error.
 */

test.describe('know who you are erasing', () => {
  test('the erasure dialog shows who the uid belongs to', async ({ app }, testInfo) => {
    // The row's text as the table shows it, read before the dialog hides the page from the accessibility tree.
    const row = app.getByRole('row').filter({ has: app.getByRole('button', { name: 'Delete jean dupont', exact: true }) });
    const rowText = (await row.textContent()) ?? '';
    await app.getByRole('button', { name: 'Delete jean dupont', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Delete user jean␣dupont' });
    const identity = dialog.getByRole('region', { name: 'Who this uid belongs to' });
    await expect(identity).toBeVisible();
    // The name the table shows for this uid is the one the dialog shows.
    const name = (await identity.locator('dd').first().textContent())?.trim() ?? '';
    expect(name.length).toBeGreaterThan(0);
    expect(rowText).toContain(name);
    await expect(identity).toContainText(/\d+ messages · \d+ votes/);
    await photograph(app, testInfo, 'erasure-identity', { restoreSize: true });
  });

  test('a uid not seen on the list is said so before any ceremony; no countdown; Close after NOT_FOUND', async ({ app, sandbox }, testInfo) => {
    const box = app.getByRole('region', { name: 'Act on a uid' });
    await box.getByLabel('uid', { exact: true }).fill('jean dupond');
    await box.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Delete user jean␣dupond' });
    await expect(dialog).toContainText('Not seen on the service’s list — check the uid.');
    await expect(dialog.getByLabel('Type the uid to confirm')).toHaveCount(0);
    await expect(dialog.getByRole('timer')).toHaveCount(0);
    await photograph(app, testInfo, 'erasure-unknown-uid', { restoreSize: true });
    const before = ((await (await fetch(`${sandbox.url}/sandbox/stats`)).json()) as { apiRequests: number }).apiRequests;
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    const after = ((await (await fetch(`${sandbox.url}/sandbox/stats`)).json()) as { apiRequests: number }).apiRequests;
    expect(after).toBe(before);

    // "Look it up" hands the uid to the search over every page.
    await box.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Look it up' }).click();
    await expect(dialog).toBeHidden();
    await expect(app.getByRole('search').getByRole('searchbox')).toHaveValue('jean dupond');
  });
});

test.describe('live data', () => {
  test('switching to a live profile asks first; a logout on it asks again and sends nothing on Cancel', async ({ app, bridge, profile }, testInfo) => {
    void profile;
    // https on an IPv4-mapped loopback address: live by the console's rule, yet nothing can leave this computer.
    const port = await closedPort();
    const liveName = uniqueName('E2E live');
    const saved = await bridge('profiles.save', { name: liveName, baseUrl: `https://[::ffff:127.0.0.1]:${port}`, applicationName: 'city-portal', apiKey: 'live-key-e2e', apiSecret: 'live-secret-e2e' });
    if (!saved.ok) throw new Error(saved.error.message);
    try {
      await app.reload();
      await waitForConsole(app);
      await app.getByRole('combobox', { name: 'Active profile' }).selectOption({ label: liveName });
      const switchDialog = app.getByRole('dialog', { name: 'Switch to a live profile?' });
      await expect(switchDialog).toContainText(`“${liveName}” works on live data`);
      await photograph(app, testInfo, 'live-switch-confirm', { restoreSize: true });
      await switchDialog.getByRole('button', { name: 'Switch to live data' }).click();
      await expect(switchDialog).toBeHidden();
      await expect(app.getByRole('combobox', { name: 'Active profile' })).toHaveValue(saved.value.id);

      await app.getByRole('tab', { name: 'Logout tester' }).click();
      await app.getByLabel('User uid').fill('jean dupont');
      await app.getByRole('button', { name: 'Send logout' }).click();
      const confirm = app.getByRole('dialog', { name: 'Send a logout to live data?' });
      await expect(confirm).toContainText('This ends real sessions of jean␣dupont');
      await expect(confirm.getByRole('timer')).toHaveCount(0);
      await photograph(app, testInfo, 'live-logout-confirm', { restoreSize: true });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      // Nothing was sent: no result, and no logout in the audit trail.
      await expect(app.getByRole('region', { name: /Response/ })).toHaveCount(0);
      const audit = await bridge('audit.list', { limit: 50 });
      if (!audit.ok) throw new Error(audit.error.message);
      expect(audit.value.entries.filter((e) => e.profileId === saved.value.id)).toEqual([]);
    } finally {
      await bridge('profiles.remove', { id: saved.value.id, confirmName: liveName }).catch(() => undefined);
    }
  });
});

test.describe('logout tester', () => {
  test('a send that cannot reach the service shows NETWORK and its message, not INTERNAL', async ({ app, bridge, profile }, testInfo) => {
    void profile;
    const port = await closedPort();
    const name = uniqueName('E2E unreachable');
    const saved = await bridge('profiles.save', { name, baseUrl: `http://127.0.0.1:${port}`, applicationName: 'demo', apiKey: 'k-e2e', apiSecret: 's-e2e' });
    if (!saved.ok) throw new Error(saved.error.message);
    try {
      const active = await bridge('profiles.setActive', { id: saved.value.id });
      if (!active.ok) throw new Error(active.error.message);
      await app.reload();
      await waitForConsole(app);
      await app.getByRole('tab', { name: 'Logout tester' }).click();
      await app.getByLabel('User uid').fill('jean dupont');
      await app.getByRole('button', { name: 'Send logout' }).click();
      const alert = app.getByRole('region', { name: /Response/ }).getByRole('alert');
      await expect(alert).toContainText('NETWORK');
      await expect(alert).not.toContainText('INTERNAL');
      await expect(alert).not.toContainText('Something went wrong inside Privacy Desk');
      await saveScreenshot(app, testInfo, 'logout-network-error-1360x850', 'light');
    } finally {
      await bridge('profiles.remove', { id: saved.value.id, confirmName: name }).catch(() => undefined);
    }
  });

  test('"Simulate a login" opens a session the valid logout then ends', async ({ app, sandbox }) => {
    const uid = 'alice@example.org';
    const sessions = async () => ((await (await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`)).json()) as { sessionCount: number }).sessionCount;
    await app.getByRole('tab', { name: 'Logout tester' }).click();
    await app.getByLabel('User uid').fill(uid);
    const start = await sessions();
    await expect(app.getByText(`Active sessions: ${start}`)).toBeVisible();
    await app.getByRole('button', { name: 'Simulate a login' }).click();
    await expect(app.getByText(`Active sessions: ${start + 1}`)).toBeVisible();
    expect(await sessions()).toBe(start + 1);
    await app.getByRole('button', { name: 'Send logout' }).click();
    const result = app.getByRole('region', { name: /Response · Valid token/ });
    await expect(result).toContainText(`Before: ${start + 1}`);
    await expect(result).toContainText('After: 0');
  });
});
