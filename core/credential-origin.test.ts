import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { baseUrlOrigin, needsCredentialsAgain } from '../shared/credential-origin';
import { createSessionCredentialStore, type CredentialStore } from './credential-store';
import { createDesk } from './desk';
import type { ServiceClientOptions } from './types';

const SECRET = 'origin-unit-secret-0123456789';

describe('credential origins (shared rule)', () => {
  it('compares scheme, host and port, not the path', () => {
    expect(baseUrlOrigin('https://Debate.example.com/api/v1')).toBe('https://debate.example.com');
    expect(needsCredentialsAgain('https://debate.example.com', 'https://debate.example.com/other')).toBe(false);
    expect(needsCredentialsAgain('https://debate.example.com', 'https://debate.example.com:443')).toBe(false);
    expect(needsCredentialsAgain('https://debate.example.com', 'https://evil.example.com')).toBe(true);
    expect(needsCredentialsAgain('https://debate.example.com', 'http://debate.example.com')).toBe(true);
    expect(needsCredentialsAgain('http://127.0.0.1:4000', 'http://127.0.0.1:4001')).toBe(true);
    expect(needsCredentialsAgain('https://debate.example.com', 'not a url')).toBe(false); // the address check explains that one
  });
});

describe('the Desk binds stored credentials to their origin', () => {
  let dataDir: string;
  let store: CredentialStore;
  let opened: ServiceClientOptions[];
  const makeDesk = () =>
    createDesk({
      dataDir,
      credentialStore: store,
      via: 'app',
      connect: (options) => {
        opened.push(options);
        return {
          client: { profile: options.profile, listUsers: async () => ({ users: [], page: 1, perPage: 1, hasNext: false }), buildLogoutToken: async () => ({ token: 'a.b.c', header: {}, claims: {} }), verifyLogoutToken: async () => ({ valid: true, problemTexts: [], problems: [] }), checkToken: async (scope) => ({ scope, expiresAt: 0 }) },
          acts: { erase: async () => Promise.reject(new Error('not in this test')), sendLogout: async () => Promise.reject(new Error('not in this test')) },
        };
      },
    });

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'desk-origin-'));
    store = createSessionCredentialStore();
    opened = [];
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('stores the origin with the key and secret', async () => {
    const desk = makeDesk();
    const view = await desk.saveProfile({ name: 'Live', baseUrl: 'https://debate.example.com/api/v1/', applicationName: 'app', apiKey: 'key-1', apiSecret: SECRET });
    expect(await store.get(view.id)).toEqual({ apiKey: 'key-1', apiSecret: SECRET, origin: 'https://debate.example.com' });
  });

  it('binds an entry from before the binding on first use, then refuses any other origin', async () => {
    const desk = makeDesk();
    const view = await desk.saveProfile({ name: 'Live', baseUrl: 'https://debate.example.com', applicationName: 'app', apiKey: 'key-1', apiSecret: SECRET });
    await store.set(view.id, { apiKey: 'key-1', apiSecret: SECRET }, undefined as unknown as string); // as an older version wrote it
    await desk.listUsers(view.id);
    expect(opened).toHaveLength(1);
    expect((await store.get(view.id))?.origin).toBe('https://debate.example.com');

    // An older version (or a hand edit) could have moved the profile: the core still refuses.
    await expect(desk.saveProfile({ id: view.id, name: 'Live', baseUrl: 'https://evil.example.net', applicationName: 'app' })).rejects.toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
  });

  it('the bundled sandbox re-binds its own credentials when its port moves between launches', async () => {
    const credentials = { apiKey: 'sandbox-key', apiSecret: SECRET };
    await makeDesk().ensureSandboxProfile({ url: 'http://127.0.0.1:4100', credentials });
    const desk = makeDesk();
    await desk.ensureSandboxProfile({ url: 'http://127.0.0.1:4200', credentials });
    await desk.listUsers('sandbox');
    expect(opened.at(-1)?.profile.baseUrl).toBe('http://127.0.0.1:4200');
    expect((await store.get('sandbox'))?.origin).toBe('http://127.0.0.1:4200');
  });
});
