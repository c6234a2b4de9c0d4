import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { SANDBOX_DEFAULTS } from '../sandbox/server';
import { test, expect, sandboxUser } from './fixtures';
import { holdPageClock, runCountdown } from './support';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

base('the built renderer contains no secret key, no API key and no Bearer header', async () => {
  const root = resolve('dist/renderer');
  const files = await filesUnder(root);
  expect(files.some((f) => f.endsWith('index.html')), 'dist/renderer is built').toBe(true);
  for (const file of files) {
    const text = await readFile(file, 'latin1');
    expect(text, `${file} holds the sandbox secret`).not.toContain(SANDBOX_DEFAULTS.apiSecret);
    expect(text, `${file} holds the sandbox API key`).not.toContain(SANDBOX_DEFAULTS.apiKey);
    expect(text, `${file} mentions Bearer`).not.toContain('Bearer');
  }
});

test('during a full flow the page talks only to its own host, and no bridge answer carries a secret or token', async ({ page, host, sandbox, profile }) => {
  const requests: string[] = [];
  const bridgeBodies: Promise<{ url: string; body: string }>[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/bridge/')) {
      bridgeBodies.push(response.text().then((body) => ({ url: response.url(), body })));
    }
  });

  await page.goto(host.url);
  const users = page.getByRole('table', { name: 'Users on page 1' });
  await expect(users.locator('tbody tr')).toHaveCount(25);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByRole('table', { name: 'Users on page 2' })).toBeVisible();
  await page.getByRole('button', { name: 'First page' }).click();
  await users.getByRole('button', { name: 'Show details of alice@example.org' }).click();
  await expect(page.getByRole('complementary', { name: 'User details' })).toBeVisible();

  // An erasure (token with scope authentication) …
  await page.getByRole('region', { name: 'Act on a uid' }).getByLabel('uid', { exact: true }).fill('hash#tag');
  await page.getByRole('region', { name: 'Act on a uid' }).getByRole('button', { name: 'Anonymise', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Anonymise user hash#tag' });
  await dialog.getByLabel('Type the uid to confirm').fill('hash#tag');
  // The countdown runs on the page's held clock: the test moves it instead of waiting 5 s.
  await holdPageClock(page);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await runCountdown(page, dialog);
  await expect(page.getByRole('status').getByText('User hash#tag anonymised', { exact: false })).toBeVisible({ timeout: 15_000 });
  expect((await sandboxUser(sandbox, 'hash#tag')).state).toBe('anonymized');

  // … a logout, a negative case and a verification …
  await page.getByRole('tab', { name: 'Logout tester' }).click();
  await page.getByLabel('User uid').fill('alice@example.org');
  await page.getByRole('button', { name: 'Send logout' }).click();
  await expect(page.getByRole('region', { name: /Response · Valid token/ })).toContainText('200');
  await page.getByRole('button', { name: 'Wrong secret', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Negative cases' })).toContainText('✓ as expected');

  // … the connection test and the audit trail.
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await page.getByRole('article', { name: profile.name }).getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByRole('list', { name: `Connection test for ${profile.name}` }).getByRole('listitem')).toHaveCount(3);
  await page.getByRole('tab', { name: 'Audit trail' }).click();
  await expect(page.getByRole('table', { name: 'Audit trail entries' })).toContainText('hash#tag');

  const sandboxOrigin = new URL(sandbox.url).origin;
  expect(requests.length).toBeGreaterThan(5);
  for (const url of requests) {
    const parsed = new URL(url);
    expect(parsed.origin, `request to ${url}`).not.toBe(sandboxOrigin);
    expect(parsed.origin, `request to ${url}`).toBe(host.origin);
    expect(parsed.pathname, `unexpected path ${parsed.pathname}`).toMatch(/^\/(bridge\/[a-zA-Z.]+|assets\/[\w.-]+|index\.html|favicon\.ico)?$/);
  }
  expect(requests.some((url) => url.includes('/bridge/users.erase'))).toBe(true);

  const bodies = await Promise.all(bridgeBodies);
  expect(bodies.length).toBeGreaterThan(5);
  for (const { url, body } of bodies) {
    expect(body, `${url} leaks the secret`).not.toContain(sandbox.credentials.apiSecret);
    expect(body, `${url} leaks the API key`).not.toContain(sandbox.credentials.apiKey);
    expect(body, `${url} carries an access token`).not.toContain('access_token');
    expect(body, `${url} carries a Bearer header`).not.toContain('Bearer');
  }
});
