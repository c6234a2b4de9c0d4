import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anchorAccount, anchorInCredentialStore } from '../../core/audit-anchor';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import { KEYCHAIN_SERVICE, openCredentialStore } from '../../core/keytar-credential-store';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';

/**
 * The anchor is updated under the audit lock before every write; a batch's group commits keep that to one keychain
 * read and one write per group. Measured: a 2,000-item batch with the anchor in the real keychain against the same
 * batch with it in memory (the figures are printed; docs/BENCHMARKS.md keeps them).
 */
const keyring = process.env.PRIVACY_DESK_KEYRING === '1';
if (!keyring) console.warn('SKIPPED audit anchor batch timing: PRIVACY_DESK_KEYRING is not set.');

describe.skipIf(!keyring)('a 2,000-item batch with the anchor in the keychain', () => {
  let sandbox: RunningSandbox;
  const folders: string[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 4_000 });
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    for (const folder of folders) {
      await keytar.deletePassword(KEYCHAIN_SERVICE, anchorAccount(folder));
      rmSync(folder, { recursive: true, force: true });
    }
  });

  async function runBatch(uids: string[], keychainAnchor: boolean): Promise<number> {
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-anchor-batch-'));
    folders.push(dataDir);
    const auditAnchor = keychainAnchor ? anchorInCredentialStore(() => openCredentialStore({ env: {} }), dataDir) : anchorInCredentialStore(createSessionCredentialStore(), dataDir);
    expect((await auditAnchor.where()).kind).toBe(keychainAnchor ? 'keychain' : 'session');
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), auditAnchor, via: 'app', appVersion: 'bench', operator: 'bench' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'bench' });
    const started = performance.now();
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'anonymize', logoutFirst: false, concurrency: 4, confirmation: `ANONYMIZE ${uids.length}` });
    const result = await run.finished;
    const ms = performance.now() - started;
    expect(result.counts.done).toBe(uids.length);
    expect(await desk.verifyAudit()).toMatchObject({ ok: true, anchor: { store: keychainAnchor ? 'keychain' : 'session', findings: 0 } });
    return ms;
  }

  it('is not slowed noticeably', { timeout: 300_000 }, async () => {
    const response = await fetch(`${sandbox.url}/api/v1/users?per_page=100&api_key=${sandbox.credentials.apiKey}`);
    expect(response.status).toBe(200);
    const all: string[] = [];
    for (let page = 1; all.length < 4_000; page++) {
      const body = (await (await fetch(`${sandbox.url}/api/v1/users?page=${page}&per_page=100&api_key=${sandbox.credentials.apiKey}`)).json()) as { data: Array<{ uid: string | null }> };
      if (body.data.length === 0) break;
      all.push(...body.data.flatMap((user) => (user.uid ? [user.uid] : [])));
    }
    const inMemory = await runBatch(all.slice(0, 2_000), false);
    const inKeychain = await runBatch(all.slice(2_000, 4_000), true);
    console.info(`2,000-item batch: anchor in memory ${Math.round(inMemory)} ms, in the keychain ${Math.round(inKeychain)} ms (${inKeychain >= inMemory ? '+' : ''}${Math.round((inKeychain / inMemory - 1) * 100)} %)`);
    // Lenient on a shared machine: the keychain may add some, never a multiple.
    expect(inKeychain).toBeLessThan(inMemory * 1.6 + 3_000);
  });
});
