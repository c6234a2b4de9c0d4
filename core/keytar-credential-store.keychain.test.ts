import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { afterAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_SERVICE, openCredentialStore, openKeytarCredentialStore, PROBE_ACCOUNT_PREFIX } from './keytar-credential-store';

const run = promisify(execFile);
const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED keychain tests: PRIVACY_DESK_KEYRING is not set. Run them with: bash scripts/with-keyring.sh npx vitest run --project keychain');

describe.skipIf(!keyring)('keytar credential store (real Secret Service keychain)', () => {
  const account = `test-profile-${process.pid}`;
  const secret = `keychain-secret-${Date.now()}-distinctive`;
  afterAll(async () => {
    await keytar.deletePassword(KEYCHAIN_SERVICE, account);
  });

  it('stores, reads back and deletes credentials under service privacy-desk, account = profile id', async () => {
    const opened = await openKeytarCredentialStore();
    if (!('store' in opened)) throw new Error(`keychain unexpectedly unavailable: ${opened.problem}`);
    const { store } = opened;
    expect(store.kind).toBe('keychain');
    expect(await store.get(account)).toBeNull();

    await store.set(account, { apiKey: 'key-1234', apiSecret: secret }, 'https://debate.example.com');
    expect(await store.get(account)).toEqual({ apiKey: 'key-1234', apiSecret: secret, origin: 'https://debate.example.com' });
    // A fresh call straight to the keychain sees the same entry, bound to the origin it was entered for.
    expect(JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, account)) ?? 'null')).toEqual({ apiKey: 'key-1234', apiSecret: secret, origin: 'https://debate.example.com' });
    // An entry written before the binding existed still reads (without an origin: the core binds it on first use).
    await keytar.setPassword(KEYCHAIN_SERVICE, account, JSON.stringify({ apiKey: 'key-1234', apiSecret: secret }));
    expect(await store.get(account)).toEqual({ apiKey: 'key-1234', apiSecret: secret });

    await store.delete(account);
    expect(await store.get(account)).toBeNull();
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, account)).toBeNull();
    // The probe entry is not left behind.
    expect((await keytar.findCredentials(KEYCHAIN_SERVICE)).filter((c) => c.account.startsWith(`${PROBE_ACCOUNT_PREFIX}:${process.pid}:`))).toEqual([]);
  });

  it('openCredentialStore picks the keychain when it works', async () => {
    const { store, problem } = await openCredentialStore({ env: {} });
    expect(store.kind).toBe('keychain');
    expect(problem).toBeUndefined();
  });

  it('several opened at once (the app and CLI commands starting together) each find the keychain working', async () => {
    // Each probe writes, reads back and deletes its own entry: with one shared entry, one deleted it under another's read.
    const opened = await Promise.all(Array.from({ length: 6 }, () => openCredentialStore({ env: {} })));
    expect(opened.map(({ store, problem }) => [store.kind, problem])).toEqual(Array.from({ length: 6 }, () => ['keychain', undefined]));
  });

  it('falls back to the session store with a clear problem when no D-Bus session is reachable', async () => {
    const script = `
      import { openCredentialStore } from './core/keytar-credential-store.ts';
      const { store, problem } = await openCredentialStore();
      console.log(JSON.stringify({ kind: store.kind, problem }));
    `;
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/privacy-desk-bus' },
      timeout: 30_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { kind: string; problem?: string };
    expect(result.kind).toBe('session');
    expect(result.problem).toMatch(/No D-Bus session is reachable/);
    expect(result.problem).toMatch(/gnome-keyring/);
    expect(result.problem).toMatch(/this session only/);
  });
});
