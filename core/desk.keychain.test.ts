import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createDesk } from './desk';
import { KEYCHAIN_SERVICE, openCredentialStore } from './keytar-credential-store';

const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED Desk keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain');

const SECRET = 'desk-keychain-SECRET-9b7d5f3a1c0e2468ace13579bdf02468ace13579bdf02468ace13579bdf0';

describe.skipIf(!keyring)('Desk with the real keychain and the real sandbox', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 25, apiSecret: SECRET });
    dataDir = mkdtempSync(join(tmpdir(), 'desk-keychain-'));
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const openDesk = async () => {
    const { store, problem } = await openCredentialStore({ env: {} });
    expect(problem).toBeUndefined();
    return createDesk({ dataDir, credentialStore: store, via: 'app' });
  };

  it('keeps the credentials in the keychain only, survives a restart, and removing the profile removes the entry', async () => {
    const desk = await openDesk();
    const view = await desk.saveProfile({ name: 'Local test', baseUrl: `${sandbox.url}/`, applicationName: 'sandbox-app', apiKey: sandbox.credentials.apiKey, apiSecret: SECRET });
    expect(view).toMatchObject({ credentialStorage: 'keychain', hasCredentials: true, isLocal: true, apiKeyHint: sandbox.credentials.apiKey.slice(-4) });
    // Bound to the origin they were entered for: never sent to another one.
    expect(JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, view.id)) ?? 'null')).toEqual({ apiKey: sandbox.credentials.apiKey, apiSecret: SECRET, origin: sandbox.url });

    const checks = await desk.testConnection(view.id);
    expect(checks.map((c) => [c.step, c.ok])).toEqual([['token-authentication', true], ['token-public', true], ['list-users', true]]);
    await desk.erase({ profileId: view.id, action: 'anonymize', uid: 'alice@example.org', confirmUid: 'alice@example.org', reference: 'T-1' });
    expect(await desk.sandboxUserState(view.id, 'alice@example.org')).toMatchObject({ exists: true, anonymized: true });
    await desk.sendLogout(view.id, 'bob+news@example.org');

    // A new process: profiles.json plus the keychain are enough to work again.
    const restarted = await openDesk();
    const page = await restarted.listUsers(view.id, { page: 1, perPage: 5 });
    expect(page.users).toHaveLength(5);

    // The secret is nowhere under the data folder (profiles.json, audit.jsonl, anything else).
    const files = readdirSync(dataDir);
    expect(files).toEqual(expect.arrayContaining(['profiles.json', 'audit.jsonl']));
    for (const file of files) expect(readFileSync(join(dataDir, file), 'utf8'), file).not.toContain(SECRET);

    await restarted.removeProfile(view.id, 'Local test');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, view.id)).toBeNull();
    expect((await restarted.listProfiles()).profiles).toEqual([]);
  });

  it('the bundled sandbox profile is stored the same way under the reserved id', async () => {
    const desk = await openDesk();
    const view = await desk.ensureSandboxProfile({ url: sandbox.url, credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: SECRET } });
    expect(view).toMatchObject({ id: 'sandbox', name: 'Sandbox', credentialStorage: 'keychain' });
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'sandbox')).toContain(SECRET);
    await desk.removeProfile('sandbox', 'Sandbox');
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'sandbox')).toBeNull();
  });
});
