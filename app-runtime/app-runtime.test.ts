import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchPreview } from '../shared/batch';
import type { BridgeEvent, BridgeResponse } from '../shared/contract';
import { PrivacyDeskError } from '../shared/errors';
import type { UserPage } from '../shared/users';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import type { FetchLike } from '../core/types';
import { dispatchBridgeCall } from '../handlers/dispatch';
import { startAppRuntime, type AppRuntime } from './app-runtime';

/**
 * Closing the runtime (quitting the app, stopping `npm run web`) while a batch
 * runs: the run is cancelled, the items already sent finish, and their
 * outcomes are in the journal before close() resolves.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** Holds every erasure request until the test releases them; counts the ones held. */
function erasureGate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  let onHeld: (count: number) => void = () => {};
  const fetchHeld: FetchLike = async (input, init) => {
    if (/\/users\/[^/]+\/(anonymize|delete)$/.test(new URL(String(input)).pathname)) {
      held += 1;
      onHeld(held);
      await released;
    }
    return fetch(input, init);
  };
  const heldCount = (count: number) =>
    new Promise<void>((resolve) => {
      if (held >= count) resolve();
      else onHeld = (now) => now >= count && resolve();
    });
  return { fetch: fetchHeld, release, heldCount };
}

async function startRuntime(gate: ReturnType<typeof erasureGate>, batchStopGraceMs?: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-runtime-'));
  // The last test lets held requests go after close: their outcomes may still be landing in the folder as it is removed.
  cleanups.push(() => rm(dataDir, { recursive: true, force: true, maxRetries: 10 }));
  const runtime = await startAppRuntime({
    dataDir,
    sandboxPort: 0,
    fetch: gate.fetch,
    version: '9.9.9',
    locale: 'en-GB',
    openCredentials: async () => ({ store: createSessionCredentialStore() }),
    ...(batchStopGraceMs !== undefined ? { batchStopGraceMs } : {}),
  });
  cleanups.push(() => runtime.close());
  const events: BridgeEvent[] = [];
  runtime.events.subscribe((event) => events.push(event));
  return { runtime, dataDir, events };
}

async function value<T>(runtime: AppRuntime, method: string, input: unknown): Promise<T> {
  const response: BridgeResponse<unknown> = await dispatchBridgeCall(runtime.handlers, method, input);
  if (!response.ok) throw new PrivacyDeskError(response.error);
  return response.value as T;
}

/** Starts a batch of `count` of the bundled sandbox's users, two at a time. */
async function startBatch(runtime: AppRuntime, count: number) {
  const page = await value<UserPage>(runtime, 'users.list', { profileId: 'sandbox', perPage: 100 });
  const uids = page.users.flatMap((user) => (user.uid ? [user.uid] : [])).slice(0, count);
  expect(uids).toHaveLength(count);
  const preview = await value<BatchPreview>(runtime, 'batch.preview', { text: uids.join('\n') });
  return value<{ jobId: string; batchId: string }>(runtime, 'batch.start', {
    draftId: preview.draftId,
    profileId: 'sandbox',
    action: 'anonymize',
    concurrency: 2,
    confirmation: `ANONYMISE ${count}`,
  });
}

/** The job as another process (the CLI) would read it from the data folder afterwards. */
async function jobOnDisk(dataDir: string, batchId: string) {
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli' });
  return (await desk.batch.list()).find((job) => job.batchId === batchId);
}

describe('closing the runtime during a batch run', () => {
  it('cancels the run and waits for the items in flight: their outcomes are in the journal, the rest stays unfinished', async () => {
    const gate = erasureGate();
    const { runtime, dataDir, events } = await startRuntime(gate);
    const { jobId, batchId } = await startBatch(runtime, 6);
    await gate.heldCount(2); // two items sent, nothing else may start

    const order: string[] = [];
    runtime.events.subscribe((event) => {
      if (event.name === 'job.finished' && event.payload.jobId === jobId) order.push('job.finished');
    });
    const closing = runtime.close().then(() => order.push('closed'));
    gate.release();
    await closing;

    expect(order).toEqual(['job.finished', 'closed']);
    const finished = events.find((e) => e.name === 'job.finished' && e.payload.jobId === jobId)?.payload;
    expect(finished).toMatchObject({ kind: 'batch.run', status: 'completed', result: { batchId, state: 'cancelled', counts: { done: 2, unfinished: 4 } } });
    expect(await jobOnDisk(dataDir, batchId)).toMatchObject({ state: 'unfinished', counts: { done: 2, failed: 0, unfinished: 4 } });
  });

  it('does not wait past its bound for an item that never comes back: close resolves, the job stays resumable', async () => {
    const gate = erasureGate();
    const { runtime, dataDir } = await startRuntime(gate, 0);
    const { batchId } = await startBatch(runtime, 4);
    await gate.heldCount(2);

    await runtime.close(); // would never resolve without the bound: the held requests are released only below
    const onDisk = await jobOnDisk(dataDir, batchId);
    expect(onDisk?.counts).toMatchObject({ done: 0, unfinished: 4 });
    gate.release();
  });
});
