import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE } from '../../core/keytar-credential-store';
import { ensureBuiltCli, runBin, startCliFixture, type CliFixture } from './cli-harness';

const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED CLI profile keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain');

describe.skipIf(!keyring)('privacy-desk profiles through the real keychain', () => {
  let f: CliFixture;
  const useKeychain = { PRIVACY_DESK_CREDENTIAL_STORE: undefined };
  const noEnvCredentials = { ...useKeychain, PRIVACY_DESK_API_KEY: undefined, PRIVACY_DESK_API_SECRET: undefined };
  beforeAll(async () => {
    ensureBuiltCli();
    f = await startCliFixture(15);
  }, 60_000);
  afterAll(() => f.close());

  it('adds, lists, uses and removes a profile; the keychain entry goes with it', async () => {
    const add = await f.cli(['profiles', 'add', '--name', 'Sandbox CLI', '--base-url', f.sandbox.url, '--app', 'sandbox-app'], { env: useKeychain, connection: false });
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/Saved profile “Sandbox CLI” \(id sandbox-cli-[0-9a-f]{6}, key …-key\)/);

    const list = await f.cli(['profiles', 'list', '--json'], { env: noEnvCredentials, connection: false });
    expect(list.code).toBe(0);
    const { profiles, activeId } = JSON.parse(list.stdout) as { profiles: Array<{ id: string; credentialStorage: string; hasCredentials: boolean }>; activeId: string };
    expect(profiles).toHaveLength(1);
    expect(profiles[0]).toMatchObject({ id: activeId, credentialStorage: 'keychain', hasCredentials: true });
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, activeId)).toContain(f.sandbox.credentials.apiSecret);

    // No connection options and no env credentials: the active profile and the keychain are used.
    const active = await f.cli(['users', 'list', '--per-page', '5', '--json'], { env: noEnvCredentials, connection: false });
    expect(active.code).toBe(0);
    expect((JSON.parse(active.stdout) as { users: unknown[] }).users).toHaveLength(5);
    const byName = await f.cli(['users', 'list', '--profile', 'sandbox cli'], { env: noEnvCredentials, connection: false });
    expect(byName.code).toBe(0);
    expect(byName.stdout).toMatch(/page 1 of 2, 15 users/);
    // The built bin too: keytar (native) stays outside the bundle and loads when the keychain is opened.
    const viaBin = await runBin(f, ['users', 'list', '--profile', 'Sandbox CLI', '--per-page', '4', '--json'], { env: noEnvCredentials, connection: false });
    expect(viaBin.stderr).toBe('');
    expect(viaBin.code).toBe(0);
    expect((JSON.parse(viaBin.stdout) as { users: unknown[] }).users).toHaveLength(4);

    const duplicate = await f.cli(['profiles', 'add', '--name', 'sandbox cli', '--base-url', f.sandbox.url, '--app', 'sandbox-app'], { env: useKeychain, connection: false });
    expect(duplicate.code).toBe(2);
    expect(duplicate.stderr).toMatch(/^INVALID_INPUT: A profile named “?"?Sandbox CLI/);

    const wrongConfirm = await f.cli(['profiles', 'remove', 'Sandbox CLI', '--confirm', 'sandbox cli'], { env: noEnvCredentials, connection: false });
    expect(wrongConfirm.code).toBe(2);
    expect(wrongConfirm.stderr).toMatch(/^CONFIRMATION_MISMATCH: /);

    const remove = await f.cli(['profiles', 'remove', 'Sandbox CLI', '--confirm', 'Sandbox CLI'], { env: noEnvCredentials, connection: false });
    expect(remove.code).toBe(0);
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, activeId)).toBeNull();
    const after = await f.cli(['profiles', 'list', '--json'], { env: noEnvCredentials, connection: false });
    expect(JSON.parse(after.stdout)).toEqual({ profiles: [], activeId: null });
  });

  it('profiles add without the variables (and no terminal to ask on) names them, exit 2', async () => {
    const { code, stderr } = await f.cli(['profiles', 'add', '--name', 'X', '--base-url', f.sandbox.url, '--app', 'sandbox-app'], { env: noEnvCredentials, connection: false });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: profiles add reads the new profile’s keys from the environment when there is no terminal to ask on: set PRIVACY_DESK_API_KEY to the API key and PRIVACY_DESK_API_SECRET to the secret key/);
  });
});
