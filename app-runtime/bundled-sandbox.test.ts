import { createServer, type Server } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import { startBundledSandbox, wantsBundledSandbox } from './bundled-sandbox';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function freshDesk() {
  const dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-bundled-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { dataDir, desk: createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app' }) };
}

describe('bundled sandbox', () => {
  it('starts on first run, creates the active Sandbox profile and keeps its state in the data folder', async () => {
    const { dataDir, desk } = await freshDesk();
    const sandbox = await startBundledSandbox({ desk, dataDir, port: 0 });
    expect(sandbox).toBeDefined();
    cleanups.push(() => sandbox!.close());
    const { profiles, activeId } = await desk.listProfiles();
    expect(activeId).toBe('sandbox');
    expect(profiles).toEqual([expect.objectContaining({ id: 'sandbox', name: 'Sandbox', baseUrl: sandbox!.url, applicationName: 'sandbox-app', hasCredentials: true })]);
    expect(existsSync(join(dataDir, 'sandbox-state.json'))).toBe(true);
    expect((await desk.listUsers('sandbox', { perPage: 1 })).users).toHaveLength(1);
  });

  it('is not started for someone who only has real profiles', async () => {
    const { dataDir, desk } = await freshDesk();
    await desk.saveProfile({ name: 'Live', baseUrl: 'https://debate.example.com', applicationName: 'news', apiKey: 'k', apiSecret: 's' });
    expect(await wantsBundledSandbox(desk)).toBe(false);
    expect(await startBundledSandbox({ desk, dataDir, port: 0 })).toBeUndefined();
  });

  it('is started again while the Sandbox profile exists, next to real profiles', async () => {
    const { dataDir, desk } = await freshDesk();
    const first = await startBundledSandbox({ desk, dataDir, port: 0 });
    await first!.close();
    await desk.saveProfile({ name: 'Live', baseUrl: 'https://debate.example.com', applicationName: 'news', apiKey: 'k', apiSecret: 's' });
    const second = await startBundledSandbox({ desk, dataDir, port: 0 });
    cleanups.push(() => second!.close());
    const sandboxProfile = (await desk.listProfiles()).profiles.find((p) => p.id === 'sandbox');
    expect(sandboxProfile?.baseUrl).toBe(second!.url);
  });

  it('moves to a free port when the preferred one is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => blocker.close(resolve)));
    const takenPort = (blocker.address() as { port: number }).port;
    const { dataDir, desk } = await freshDesk();
    const sandbox = await startBundledSandbox({ desk, dataDir, port: takenPort });
    cleanups.push(() => sandbox!.close());
    expect(new URL(sandbox!.url).port).not.toBe(String(takenPort));
    expect((await desk.listProfiles()).profiles[0]?.baseUrl).toBe(sandbox!.url);
  });

  it('starts nothing while profiles.json is corrupt (the window reports it instead)', async () => {
    const { dataDir, desk } = await freshDesk();
    await writeFile(join(dataDir, 'profiles.json'), '{ not json');
    expect(await startBundledSandbox({ desk, dataDir, port: 0 })).toBeUndefined();
  });
});
