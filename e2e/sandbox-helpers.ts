import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import keytar from 'keytar';
import { anchorAccount } from '../core/audit-anchor';
import { KEYCHAIN_SERVICE } from '../core/keytar-credential-store';
import type { RunningSandbox } from '../sandbox/server';
import { expect, type BridgeCaller } from './fixtures';

/**
 * What the e2e specs do outside the page: the sandbox's test-only routes, acts through the bridge, the built CLI,
 * the keychain's anchor. One copy each, so that every spec sets things up the same way.
 */

/** Sets the sandbox's faults (latency, error rate…) through its test-only route. */
export async function putSandboxFaults(sandboxUrl: string, faults: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandboxUrl}/sandbox/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
  expect(response.ok).toBe(true);
}

/** Every answer of the sandbox takes this long: a batch lasts long enough to be paused or cancelled by hand. */
export async function setLatency(sandboxUrl: string, latencyMs: number): Promise<void> {
  await putSandboxFaults(sandboxUrl, { latencyMs });
}

/** A port on this computer that nothing listens on: requests to it are refused without leaving the machine. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Plain seeded uids (the awkward ones, among the first 15, have their own tests): `count` of them after those. */
export async function plainUids(bridge: BridgeCaller, profileId: string, count: number): Promise<string[]> {
  const listed = await bridge('users.list', { profileId, page: 1, perPage: 60 });
  if (!listed.ok) throw new Error(`Listing users failed: ${listed.error.message}`);
  const uids = listed.value.users.slice(15).map((user) => user.uid).filter((uid): uid is string => uid !== null && /^[\w.@-]{1,100}$/.test(uid));
  expect(uids.length, 'the sandbox seeds enough plain uids').toBeGreaterThanOrEqual(count);
  return uids.slice(0, count);
}

/** Anonymises a uid through the bridge (no dialog): an act in the audit trail to look at. */
export async function anonymiseThroughTheBridge(bridge: BridgeCaller, profileId: string, uid: string, reference: string): Promise<void> {
  const answer = await bridge('users.erase', { profileId, action: 'anonymize', uid, confirmUid: uid, reference });
  if (!answer.ok) throw new Error(`Anonymising ${uid} failed: ${answer.error.code} ${answer.error.message}`);
}

/**
 * Anonymises, as a batch through the bridge, the uids `pick` chooses among the seeded ones (in the sandbox's
 * order, null where a user has none), and waits until the job is finished.
 */
export async function finishedBatch(bridge: BridgeCaller, profileId: string, reference: string, pick: (uids: (string | null)[]) => string[]): Promise<void> {
  const listed = await bridge('users.list', { profileId, page: 1, perPage: 60 });
  if (!listed.ok) throw new Error(listed.error.message);
  const uids = pick(listed.value.users.map((user) => user.uid));
  const preview = await bridge('batch.preview', { text: uids.join('\n'), sourceName: 'requests.txt' });
  if (!preview.ok) throw new Error(preview.error.message);
  const started = await bridge('batch.start', { draftId: preview.value.draftId, profileId, action: 'anonymize', reference, confirmation: `ANONYMISE ${uids.length}` });
  if (!started.ok) throw new Error(started.error.message);
  await expect
    .poll(async () => {
      const job = await bridge('batch.get', { batchId: started.value.batchId });
      return job.ok ? job.value.job?.state : undefined;
    })
    .toBe('finished');
}

/** Waits until the keychain's anchor knows the last write landed (told a moment after it: core/audit-anchor-confirm.ts). */
export async function anchorSettled(dataDir: string): Promise<void> {
  await expect.poll(async () => (JSON.parse((await keytar.getPassword(KEYCHAIN_SERVICE, anchorAccount(dataDir))) ?? '{}') as { next?: unknown }).next).toBeUndefined();
}

/** The built CLI (bin/privacy-desk.js → dist/cli/main.js), as an operator would run it at the same time, on the same data folder. */
export function runBuiltCli(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** `privacy-desk users delete <uid>` with the built CLI against the sandbox, on the host's data folder; it must succeed. */
export async function deleteWithBuiltCli(sandbox: RunningSandbox, dataDir: string, uid: string): Promise<void> {
  const { apiKey, apiSecret, applicationName } = sandbox.credentials;
  const cli = await runBuiltCli(['--base-url', sandbox.url, '--app', applicationName, 'users', 'delete', uid, '--confirm', uid, '--no-logout-first'], {
    PRIVACY_DESK_DATA_DIR: dataDir,
    PRIVACY_DESK_API_KEY: apiKey,
    PRIVACY_DESK_API_SECRET: apiSecret,
  });
  expect(cli.code, cli.output).toBe(0);
}
