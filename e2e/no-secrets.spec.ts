import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { SANDBOX_DEFAULTS } from '../sandbox/server';
import { BRIDGE_EVENTS_PATH } from '../shared/web-host-protocol';
import type { RunningWebHost } from '../web-host/web-host';
import { test, expect, bridgeCaller, sandboxUser } from './fixtures';
import { holdPageClock, runCountdown } from './support';

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

/** A secret as it would look written plainly, base64-encoded (Basic auth) or percent-encoded (a form body). */
function spellings(secret: string): string[] {
  return [...new Set([secret, Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url'), encodeURIComponent(secret)])];
}

/** Every line this process writes (the web host and the app runtime run in it) until `stop()`. */
function recordProcessOutput(): { lines: () => string; stop: () => void } {
  let text = '';
  const streams = [process.stdout, process.stderr] as const;
  const originals = streams.map((stream) => stream.write.bind(stream));
  streams.forEach((stream, index) => {
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return (originals[index] as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
  });
  return { lines: () => text, stop: () => streams.forEach((stream, index) => (stream.write = originals[index] as typeof stream.write)) };
}

/** A second subscriber to the host's event stream (events go to every open stream): what the page receives, as text. */
function recordEventStream(host: RunningWebHost): { text: () => string; stop: () => Promise<void> } {
  const controller = new AbortController();
  let text = '';
  const reading = (async () => {
    const response = await fetch(`${host.origin}${BRIDGE_EVENTS_PATH}`, { headers: { 'X-Privacy-Desk-Token': host.token, Accept: 'text/event-stream' }, signal: controller.signal });
    expect(response.status).toBe(200);
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  })().catch((error: unknown) => {
    if ((error as Error).name !== 'AbortError') throw error;
  });
  return {
    text: () => text,
    stop: async () => {
      controller.abort();
      await reading;
    },
  };
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

test('during a full flow the page talks only to its own host, and neither the secret nor any access token appears in an answer, a log line, the event stream or a file', async ({ page, host, sandbox, profile, dataDir }) => {
  const requests: string[] = [];
  const bridgeBodies: Promise<{ url: string; body: string }>[] = [];
  const hostResponses: Promise<{ url: string; body: string }>[] = [];
  const consoleLines: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    const { pathname } = new URL(response.url());
    // The event stream never ends while the host runs: recordEventStream reads the same events.
    if (pathname === BRIDGE_EVENTS_PATH) return;
    const body = response.text().then((text) => ({ url: response.url(), body: text }), () => ({ url: response.url(), body: '' }));
    hostResponses.push(body);
    if (pathname.startsWith('/bridge/')) bridgeBodies.push(body);
  });
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('pageerror', (error) => consoleLines.push(`${error.name}: ${error.message}`));
  const processOutput = recordProcessOutput();
  const events = recordEventStream(host);

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
  // A uid not on the loaded page is said to be unseen first: go on.
  const goOn = dialog.getByRole('button', { name: 'Continue anyway' });
  await expect(dialog.getByLabel('Type the uid to confirm').or(goOn)).toBeVisible();
  if (await goOn.isVisible()) await goOn.click();
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

  // A walk through every page, so the event stream carries job events too.
  const walk = await bridgeCaller(host)('users.walk', { profileId: profile.id, perPage: 25 });
  expect(walk.ok).toBe(true);
  await expect.poll(() => events.text()).toContain('job.finished');
  await events.stop();
  processOutput.stop();

  const bodies = await Promise.all(bridgeBodies);
  expect(bodies.length).toBeGreaterThan(5);
  for (const { url, body } of bodies) {
    expect(body, `${url} leaks the secret`).not.toContain(sandbox.credentials.apiSecret);
    expect(body, `${url} leaks the API key`).not.toContain(sandbox.credentials.apiKey);
    expect(body, `${url} carries an access token`).not.toContain('access_token');
    expect(body, `${url} carries a Bearer header`).not.toContain('Bearer');
  }

  // Everything recorded, against the secret and every access token the sandbox issued during the run.
  const issuedTokens = sandbox.issuedTokens();
  expect(issuedTokens.length, 'the run asked the sandbox for access tokens').toBeGreaterThan(0);
  const needles = [
    ...spellings(sandbox.credentials.apiSecret).map((text) => ({ what: 'the API secret', text })),
    ...issuedTokens.flatMap((token, index) => spellings(token).map((text) => ({ what: `access token #${index + 1}`, text }))),
  ];
  const dataFiles = await filesUnder(dataDir);
  expect(dataFiles.length, 'the run wrote files under the data folder').toBeGreaterThan(0);
  const rendererFiles = await filesUnder(resolve('dist/renderer'));
  const haystacks = [
    ...(await Promise.all(hostResponses)).map(({ url, body }) => ({ where: `web-host response ${url}`, text: body })),
    { where: 'the event stream', text: events.text() },
    { where: 'the console of the page', text: consoleLines.join('\n') },
    { where: 'the log of the web host process', text: processOutput.lines() },
    ...(await Promise.all([...dataFiles, ...rendererFiles].map(async (file) => ({ where: file, text: await readFile(file, 'latin1') })))),
  ];
  expect(haystacks.find((h) => h.where === 'the event stream')?.text).toContain('job.progress');
  for (const { where, text } of haystacks) {
    for (const needle of needles) expect(text.includes(needle.text), `${where} holds ${needle.what}`).toBe(false);
  }
});
