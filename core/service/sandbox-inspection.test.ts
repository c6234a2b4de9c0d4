import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../credential-store';
import { createDesk } from '../desk';
import type { FetchLike } from '../types';

describe('Desk.sandboxUserState: failures say what happened', () => {
  let dataDir: string;
  let server: Server | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'sandbox-inspection-'));
  });
  afterEach(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  let profiles = 0;
  async function deskOn(baseUrl: string, fetch: FetchLike, timeoutMs = 10_000) {
    profiles += 1;
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', fetch, timeoutMs });
    const profile = await desk.saveProfile({ name: `Local ${profiles}`, baseUrl, applicationName: 'app', apiKey: 'key-0123456789', apiSecret: 'secret-0123456789abcdef' });
    return { desk, profileId: profile.id };
  }

  it('a lone surrogate in the uid is INVALID_INPUT, nothing sent — not NETWORK', async () => {
    const sent: string[] = [];
    const { desk, profileId } = await deskOn('http://127.0.0.1:9', async (input) => {
      sent.push(String(input));
      throw new TypeError('fetch failed');
    });
    for (const uid of ['abc\ud800', '\udc00xyz', 'emoji cut \ud83d']) {
      await expect(desk.sandboxUserState(profileId, uid)).rejects.toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
    }
    expect(sent).toEqual([]);
  });

  it('no sandbox listening is NETWORK, nothing sent; a sandbox that never answers is TIMEOUT', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const down = await deskOn('http://127.0.0.1:9', async () => Promise.reject(refused));
    const error = await down.desk.sandboxUserState(down.profileId, 'alice').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NETWORK', outcome: 'not-sent' });
    expect((error as Error).message).toMatch(/connection was refused/);

    server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const silent = await deskOn(`http://127.0.0.1:${port}`, (input, init) => globalThis.fetch(input, init), 100);
    await expect(silent.desk.sandboxUserState(silent.profileId, 'alice')).rejects.toMatchObject({ code: 'TIMEOUT' });
    server.closeAllConnections();
  });

  it('a name under .localhost is not this computer: its "sandbox routes" are never probed', async () => {
    const sent: string[] = [];
    const { desk, profileId } = await deskOn('https://evil.localhost:4600', async (input) => {
      sent.push(String(input));
      return new Response(JSON.stringify({ state: 'active' }));
    });
    expect(await desk.sandboxUserState(profileId, 'alice')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('reads the state of a uid, and a 404 is "no sandbox state"', async () => {
    const answers: Record<string, Response> = {};
    const { desk, profileId } = await deskOn('http://127.0.0.1:9', async (input) => {
      const url = String(input);
      return answers[url] ?? new Response('{"success":false}', { status: 404 });
    });
    answers['http://127.0.0.1:9/sandbox/users/team%2Flead'] = new Response(JSON.stringify({ state: 'anonymized', sessionCount: 0, messagesCount: 3, votesCount: 2 }));
    expect(await desk.sandboxUserState(profileId, 'team/lead')).toEqual({ exists: true, anonymized: true, sessionCount: 0, messagesCount: 3, votesCount: 2 });
    expect(await desk.sandboxUserState(profileId, 'nobody')).toBeNull();
  });
});
