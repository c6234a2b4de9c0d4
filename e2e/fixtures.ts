import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { startWebHost, type RunningWebHost } from '../web-host/web-host';
import type { BridgeMethod, BridgeOutput, BridgeResponse, ProfileView } from '../shared/contract';

/**
 * Bruno-style fixtures: every test gets its own sandbox, data folder, web host
 * and a profile saved through the real bridge (so its credentials go through
 * the real keychain that scripts/with-keyring.sh provides). Names are random
 * so that parallel workers never collide in the shared keyring.
 */

export interface BridgeCaller {
  <M extends BridgeMethod>(method: M, input: unknown): Promise<BridgeResponse<BridgeOutput<M>>>;
}

interface Fixtures {
  sandbox: RunningSandbox;
  dataDir: string;
  host: RunningWebHost;
  bridge: BridgeCaller;
  profile: ProfileView;
  app: Page;
}

/** A name nobody else in the shared keyring is using. */
export function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

/** Calls the host's bridge the way the page does (token header, JSON body), from the test process. */
export function bridgeCaller(host: RunningWebHost): BridgeCaller {
  return async (method, input) => {
    const response = await fetch(`${host.origin}/bridge/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token },
      body: JSON.stringify(input ?? {}),
    });
    if (response.status !== 200) throw new Error(`Bridge call ${method} answered HTTP ${response.status}: ${await response.text()}`);
    return (await response.json()) as BridgeResponse<BridgeOutput<typeof method>>;
  };
}

/** The sandbox's own view of a uid (test-only /sandbox/ route). */
export async function sandboxUser(sandbox: RunningSandbox, uid: string): Promise<{ state: 'active' | 'anonymized' | 'deleted'; sessionCount: number }> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  if (response.status !== 200) throw new Error(`The sandbox does not know uid ${JSON.stringify(uid)} (HTTP ${response.status}).`);
  return (await response.json()) as { state: 'active' | 'anonymized' | 'deleted'; sessionCount: number };
}

/** Adds a user with a chosen (possibly awkward) uid to the sandbox. */
export async function createSandboxUser(sandbox: RunningSandbox, uid: string, extra: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ uid, full_name: 'E2E Person', email: 'e2e.person@example.org', ...extra }),
  });
  if (response.status !== 201) throw new Error(`Could not create sandbox user ${JSON.stringify(uid)}: HTTP ${response.status} ${await response.text()}`);
}

/** Opens one session for the user; returns the new session count. */
export async function loginSandboxUser(sandbox: RunningSandbox, uid: string): Promise<number> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}/login`, { method: 'POST' });
  if (response.status !== 200) throw new Error(`Could not log ${JSON.stringify(uid)} in: HTTP ${response.status}`);
  return ((await response.json()) as { sessionCount: number }).sessionCount;
}

/** Waits until the console has loaded (the main navigation is there). */
export async function waitForConsole(page: Page): Promise<void> {
  await expect(page.getByRole('tablist', { name: 'Main' })).toBeVisible();
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern
  sandbox: async ({}, use) => {
    const sandbox = await startSandbox({ users: 60 });
    await use(sandbox);
    await sandbox.close();
  },

  // eslint-disable-next-line no-empty-pattern
  dataDir: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'privacy-desk-e2e-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },

  host: async ({ dataDir }, use) => {
    // Default credential opening = keytar: the real (throwaway) keychain of with-keyring.sh.
    const host = await startWebHost({ port: 0, dataDir, bundledSandbox: false, staticDir: 'dist/renderer', version: '0.0.0-e2e' });
    await use(host);
    await host.close();
  },

  bridge: async ({ host }, use) => {
    await use(bridgeCaller(host));
  },

  profile: async ({ bridge, sandbox }, use) => {
    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    const saved = await bridge('profiles.save', { name: uniqueName('E2E sandbox'), baseUrl: sandbox.url, applicationName, apiKey, apiSecret });
    if (!saved.ok) throw new Error(`Saving the test profile failed: ${saved.error.code} ${saved.error.message}`);
    const active = await bridge('profiles.setActive', { id: saved.value.id });
    if (!active.ok) throw new Error(`Activating the test profile failed: ${active.error.message}`);
    await use(saved.value);
    // Leave the shared keyring clean; a failure here must not hide the test's own result.
    await bridge('profiles.remove', { id: saved.value.id, confirmName: saved.value.name }).catch(() => undefined);
  },

  app: async ({ page, host, profile }, use) => {
    void profile; // The profile must exist before the page opens.
    await page.goto(host.url);
    await waitForConsole(page);
    await use(page);
  },
});

export { expect };
