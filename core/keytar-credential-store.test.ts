import { describe, expect, it } from 'vitest';
import { describeKeychainFailure, openCredentialStore, openKeytarCredentialStore } from './keytar-credential-store';

describe('keychain problems are named with what to do', () => {
  it('keytar that cannot load says to rebuild it and which library it needs', async () => {
    const opened = await openKeytarCredentialStore({ platform: 'linux', loadKeytar: () => Promise.reject(new Error('Cannot find module ../build/Release/keytar.node')) });
    expect('problem' in opened && opened.problem).toMatch(/npm rebuild keytar.*libsecret-1-dev/);
  });

  it('distinguishes no D-Bus, no Secret Service provider and a locked keyring', () => {
    expect(describeKeychainFailure(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'), 'linux')).toMatch(/No D-Bus session.*gnome-keyring/);
    expect(describeKeychainFailure(new Error('Could not connect: No such file or directory'), 'linux')).toMatch(/No D-Bus session/);
    expect(describeKeychainFailure(new Error('The name org.freedesktop.secrets was not provided by any .service files'), 'linux')).toMatch(/No Secret Service provider.*gnome-keyring/);
    expect(describeKeychainFailure(new Error('Cannot create an item in a locked collection'), 'linux')).toMatch(/keyring is locked.*log in to the desktop session/);
    expect(describeKeychainFailure(new Error('Object does not exist at path “/org/freedesktop/secrets/collection/login”'), 'linux')).toMatch(/locked/);
    expect(describeKeychainFailure(new Error('odd'), 'darwin')).toMatch(/could not be used \(odd\)/);
  });

  it('a keychain that refuses the probe write gives the session store plus the problem', async () => {
    const refusing = {
      getPassword: async () => null,
      setPassword: async () => {
        throw new Error('Cannot create an item in a locked collection');
      },
      deletePassword: async () => false,
    };
    const opened = await openCredentialStore({ env: {}, platform: 'linux', loadKeytar: async () => refusing });
    expect(opened.store.kind).toBe('session');
    expect(opened.problem).toMatch(/locked/);
  });

  it('a keychain that never answers counts as unavailable after the probe timeout', async () => {
    const hanging = { getPassword: () => new Promise<null>(() => {}), setPassword: () => new Promise<void>(() => {}), deletePassword: async () => true };
    const opened = await openKeytarCredentialStore({ probeTimeoutMs: 50, loadKeytar: async () => hanging });
    expect('problem' in opened && opened.problem).toMatch(/did not answer within 0.05 s/);
  });
});
