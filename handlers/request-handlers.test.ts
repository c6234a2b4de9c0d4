import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeResponse } from '../shared/contract';
import type { RequestActsLine } from '../shared/request-acts';
import type { RequestView } from '../shared/requests';
import { batchConfirmationPhrase } from '../shared/batch';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk, type Desk } from '../core/desk';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

let sandbox: RunningSandbox;
let dataDir: string;
let desk: Desk;
let handlers: BridgeHandlers;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 12 });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-request-handlers-'));
  desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: '1.2.3' });
  handlers = createBridgeHandlers({ desk, appInfo: () => ({ version: '1.2.3', locale: 'en', keychain: desk.keychainStatus() }), jobs: createJobRegistry(() => {}) });
  desk.useTemporaryConnection({ baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function call<T>(method: Parameters<typeof dispatchBridgeCall>[1], input: unknown): Promise<T> {
  const response = (await dispatchBridgeCall(handlers, method, input)) as BridgeResponse<T>;
  if (!response.ok) throw new Error(response.error.message);
  return response.value;
}

const received = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();

describe('requests.* over the bridge', () => {
  it('creates, lists by deadline, hides the contact unless asked, counts the due ones', async () => {
    const late = await call<RequestView>('requests.create', { receivedAt: received(40), actions: ['anonymize'], subjects: [{ uid: 'bob@example.org', profileId: 'temporary' }], requester: { name: 'Bob', contact: 'bob@mail.example' } });
    const fresh = await call<RequestView>('requests.create', { receivedAt: received(1), actions: ['delete'], subjects: [{ uid: 'team/lead' }], notes: 'Web form: please erase me' });
    const { requests } = await call<{ requests: RequestView[] }>('requests.list', { filter: { status: 'open' } });
    expect(requests.map((r) => r.id)).toEqual([late.id, fresh.id]);
    expect(requests[0]!.clock.state).toBe('overdue');
    expect(requests[0]!.requester).toEqual({ state: 'hidden' });
    expect((await call<RequestView>('requests.get', { id: late.id, withContact: true })).requester).toMatchObject({ state: 'shown', contact: 'bob@mail.example' });
    expect(await call('requests.dueCount', {})).toEqual({ overdue: 1, dueSoon: 0 });
    expect((await call<{ requests: RequestView[] }>('requests.list', { filter: { text: 'WEB FORM: please' } })).requests.map((r) => r.id)).toEqual([fresh.id]);
  });

  it('refuses a late extension with the core’s reason, as a message the window words', async () => {
    const late = await call<RequestView>('requests.create', { receivedAt: received(45), actions: ['anonymize'], subjects: [{ uid: 'x' }] });
    const response = await dispatchBridgeCall(handlers, 'requests.apply', { id: late.id, change: { kind: 'extend', reason: 'numerous', personToldAt: new Date().toISOString() } });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', text: { id: 'requests.extendLate' } } });
  });

  it('users.erase with a requestId: the id is the reference and the act is linked, with its outcome', async () => {
    const request = await call<RequestView>('requests.create', { receivedAt: received(2), actions: ['anonymize'], subjects: [{ uid: 'alice@example.org', profileId: 'temporary' }] });
    await call('users.erase', { profileId: 'temporary', action: 'anonymize', uid: 'alice@example.org', confirmUid: 'alice@example.org', requestId: request.id });
    const linked = await call<RequestView>('requests.get', { id: request.id });
    expect(linked.links.actIds).toHaveLength(1);
    const { lines } = await call<{ lines: RequestActsLine[] }>('requests.acts', { id: request.id });
    expect(lines).toEqual([expect.objectContaining({ kind: 'act', uid: 'alice@example.org', action: 'anonymize', outcome: 'done', verification: 'verified' })]);
    expect((await desk.auditEntries(20)).filter((entry) => entry.action === 'anonymize').every((entry) => entry.reference === request.id)).toBe(true);
    // Closed, its answer pack: the receipt of that act in base64 and the letter's text.
    await call('requests.apply', { id: request.id, change: { kind: 'close' } });
    const pack = await call<{ receipt: { contentBase64: string; fileName: string }; letter: { content: string }; acts: number }>('requests.answerPack', { id: request.id, language: 'fr' });
    expect(pack.acts).toBe(1);
    expect(Buffer.from(pack.receipt.contentBase64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pack.letter.content.length).toBeGreaterThan(50);
  });

  it('batch.start with a requestId: the id is the reference and the job is linked once it exists', async () => {
    const request = await call<RequestView>('requests.create', { receivedAt: received(2), actions: ['delete'], subjects: [{ uid: 'hash#tag', profileId: 'temporary' }] });
    const preview = await call<{ draftId: string }>('batch.preview', { text: 'hash#tag', kind: 'list', sourceName: 'request' });
    const { batchId } = await call<{ batchId: string }>('batch.start', { draftId: preview.draftId, profileId: 'temporary', action: 'delete', confirmation: batchConfirmationPhrase('delete', 1), requestId: request.id });
    expect((await call<RequestView>('requests.get', { id: request.id })).links.batchJobIds).toEqual([batchId]);
    expect((await desk.batch.list()).find((job) => job.batchId === batchId)?.reference).toBe(request.id);
  });

  it('requests.acts names the erasures under the request’s id that are not linked to it, until they are', async () => {
    const request = await call<RequestView>('requests.create', { receivedAt: received(2), actions: ['delete'], subjects: [{ uid: 'jean dupont' }] });
    // As the CLI with --reference and no --request: audited under the id, not linked.
    await desk.erase({ profileId: 'temporary', action: 'delete', uid: 'jean dupont', confirmUid: 'jean dupont', reference: request.id });
    const { unlinkedActIds, lines } = await call<{ unlinkedActIds: string[]; lines: RequestActsLine[] }>('requests.acts', { id: request.id });
    expect(unlinkedActIds).toHaveLength(1);
    expect(lines).toEqual([]);
    await call('requests.apply', { id: request.id, change: { kind: 'link', actIds: unlinkedActIds } });
    expect(await call('requests.acts', { id: request.id })).toMatchObject({ unlinkedActIds: [], lines: [expect.objectContaining({ uid: 'jean dupont', outcome: 'done' })] });
  });

  it('users.erase with an unknown requestId sends nothing', async () => {
    const response = await dispatchBridgeCall(handlers, 'users.erase', { profileId: 'temporary', action: 'delete', uid: 'team/lead', confirmUid: 'team/lead', requestId: 'REQ-2020-9999' });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent', text: { id: 'requests.notFound' } } });
    expect((await desk.auditEntries(50)).some((entry) => entry.uid === 'team/lead')).toBe(false);
  });
});
