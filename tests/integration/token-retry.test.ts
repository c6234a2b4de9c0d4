import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import type { FetchLike } from '../../core/types';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createUser, inspectUser } from './helpers';

/**
 * Asking for an access token changes nothing on the service: a transient answer to it (a 503, a cut connection,
 * a 429) is asked again as every read is, so neither a single act nor a batch is refused for it. The fault is on
 * from the first token request, before anything else is sent.
 */
describe('a transient answer to the token request', () => {
  let sandbox: RunningSandbox;
  const folders: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 0 });
  });
  afterAll(async () => {
    await sandbox?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  afterEach(() => sandbox.setFaults({ errorRate: 0 }));

  /** A desk whose first `failures` token requests meet these answers, then reach the sandbox. */
  function deskMeeting(failures: Array<'503' | 'cut' | '429'>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-token-retry-'));
    folders.push(dataDir);
    let tokenRequests = 0;
    const fetch: FetchLike = async (input, init) => {
      if (String(input).endsWith('/oauth/token')) {
        const failure = failures[tokenRequests++];
        if (failure === 'cut') throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
        if (failure === '503') return new Response('Service Unavailable', { status: 503 });
        if (failure === '429') return new Response('Retry later\n', { status: 429, headers: { 'retry-after': '1' } });
      }
      return globalThis.fetch(input, init);
    };
    const waits: number[] = [];
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'token-retry-test', operator: 'tester', fetch, batchSleep: async (ms) => void waits.push(ms) });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
    return { desk, waits, tokenRequests: () => tokenRequests };
  }

  it('a single act goes through after a 503 and a cut connection', async () => {
    await createUser(sandbox, { uid: 'retry-one' });
    const { desk, tokenRequests } = deskMeeting(['503', 'cut']);
    const result = await desk.erase({ profileId: 'temporary', action: 'anonymize', uid: 'retry-one', confirmUid: 'retry-one', logoutFirst: false });
    expect(result.outcome).toBe('done');
    expect(tokenRequests()).toBe(3);
    expect((await inspectUser(sandbox, 'retry-one'))?.state).toBe('anonymized');
  });

  it('a batch starts after a 429 (its Retry-After honoured) and a 503, and finishes', async () => {
    for (const uid of ['retry-a', 'retry-b']) await createUser(sandbox, { uid });
    const { desk, waits } = deskMeeting(['429', '503']);
    const preview = await desk.batch.preview({ source: 'retry-a\nretry-b', sourceName: 'retry.txt' });
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 2, confirmation: 'DELETE 2' });
    const result = await run.finished;
    expect(result).toMatchObject({ state: 'finished', counts: { done: 2, unfinished: 0 } });
    expect(waits[0]).toBeGreaterThanOrEqual(1000);
    expect((await inspectUser(sandbox, 'retry-a'))?.state).toBe('deleted');
  });

  it('keys the service refuses are said at once, never asked again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-token-retry-'));
    folders.push(dataDir);
    let tokenRequests = 0;
    const fetch: FetchLike = async (input, init) => {
      if (String(input).endsWith('/oauth/token')) tokenRequests += 1;
      return globalThis.fetch(input, init);
    };
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'token-retry-test', operator: 'tester', fetch, batchSleep: async () => undefined });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: 'not-the-secret' } });
    await expect(desk.erase({ profileId: 'temporary', action: 'anonymize', uid: 'anyone', confirmUid: 'anyone', logoutFirst: false })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(tokenRequests).toBe(1);
  });
});
