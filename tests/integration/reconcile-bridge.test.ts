import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleAnchorConfirmations } from '../../core/audit-anchor-confirm';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import type { FetchLike } from '../../core/types';
import { createBridgeEventHub } from '../../handlers/bridge-event-hub';
import { createBridgeHandlers } from '../../handlers/create-bridge-handlers';
import { dispatchBridgeCall } from '../../handlers/dispatch';
import { createJobRegistry } from '../../handlers/jobs';
import type { BridgeHandlers } from '../../handlers/types';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import type { BatchPreview } from '../../shared/batch';
import type { AppInfo, BridgeEvent, BridgeResponse, ProfileView } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import type { JobFinished } from '../../shared/jobs';
import type { ReconcileExportFile, ReconcileOrphanList, ReconcileRows, ReconcileSummary } from '../../shared/reconcile';
import type { UserPage } from '../../shared/users';

const SECRET = 'reconcile-test-secret-8d2f6b0a4c9e1f3a5b7d9e0c2a4f6b8d1e3c5a7f9b0d2e4c6a8f1b3d5e7c9a0b';
const API_KEY = 'reconcile-test-key-QRST';
/** Orphans with awkward uids: a formula, a slash, a percent sign, CJK, spaces inside. */
const ORPHANS = ['=HYPERLINK("x")', 'gone/away', '50%off', '消えた人', 'two  spaces'];

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
let profile: ProfileView;
const serviceUids: string[] = [];
const events: BridgeEvent[] = [];
const finishedWaiters = new Map<string, (finished: JobFinished) => void>();
let hold: { page: number; reached: () => void; released: Promise<void> } | null = null;

const holdingFetch: FetchLike = async (input, init) => {
  const url = new URL(String(input));
  if (hold && url.pathname.endsWith('/api/v1/users') && Number(url.searchParams.get('page')) === hold.page) {
    hold.reached();
    await hold.released;
  }
  return fetch(input, init);
};

async function value<T>(method: string, input: unknown): Promise<T> {
  const response: BridgeResponse<unknown> = await dispatchBridgeCall(handlers, method, input);
  if (!response.ok) throw new PrivacyDeskError(response.error);
  return response.value as T;
}

function finishedOf(jobId: string): Promise<JobFinished> {
  const already = events.find((e) => e.name === 'job.finished' && e.payload.jobId === jobId);
  if (already) return Promise.resolve(already.payload as JobFinished);
  return new Promise((resolve) => finishedWaiters.set(jobId, resolve));
}

async function reconciled(text: string): Promise<ReconcileSummary> {
  const { jobId } = await value<{ jobId: string }>('reconcile.start', { profileId: profile.id, text, sourceName: 'app.txt', kind: 'list' });
  const finished = await finishedOf(jobId);
  if (finished.kind !== 'reconcile' || finished.status !== 'completed') throw new Error(`reconcile ended ${JSON.stringify(finished)}`);
  return finished.result;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: 230, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-reconcile-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', fetch: holdingFetch, via: 'app' });
  const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'en-GB', keychain: desk.keychainStatus() });
  const hub = createBridgeEventHub();
  hub.subscribe((event) => {
    events.push(event);
    if (event.name === 'job.finished') finishedWaiters.get(event.payload.jobId)?.(event.payload);
  });
  handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(hub.emit) });
  for (const uid of [...ORPHANS, ' Edge.Case ', 'cafe\u0301']) {
    const created = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
    expect(created.status).toBe(201);
  }
  profile = await value<ProfileView>('profiles.save', { name: 'Reconcile test', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET });
  for (let page = 1; page <= 3; page += 1) {
    const users = await value<UserPage>('users.list', { profileId: profile.id, page, perPage: 100 });
    serviceUids.push(...users.users.flatMap((user) => (user.uid ? [user.uid] : [])));
  }
  expect(serviceUids).toHaveLength(237);
});

afterAll(async () => {
  await sandbox?.close();
  await settleAnchorConfirmations();
  if (dataDir) await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
});

/** The application: every service uid but the orphans; " Edge.Case " written "edge.case", NFD "café" written NFC; one it alone has. */
function applicationText(): string {
  const rewritten: Record<string, string> = { ' Edge.Case ': 'edge.case', 'cafe\u0301': 'caf\u00e9' };
  return [...serviceUids.filter((uid) => !ORPHANS.includes(uid)).map((uid) => rewritten[uid] ?? uid), 'only-in-the-app'].join('\n');
}

describe('reconcile.* over the bridge, against a real sandbox', () => {
  it('a reconcile job walks every page and answers the counts; rows by set, filtered; the near match held apart', async () => {
    const summary = await reconciled(applicationText());
    expect(summary.counts).toMatchObject({ orphans: 5, missing: 1, nearMatches: 1, inBoth: 237 - 5 - 1, serviceUsers: 237, applicationUids: 237 - 5 + 1 });
    expect(summary.pages).toBe(3);
    expect(summary.reference).toMatch(/^reconcile-\d{8}-[0-9a-f]{6}$/);
    const orphans = await value<ReconcileRows>('reconcile.rows', { reconcileId: summary.reconcileId, set: 'orphans', limit: 100 });
    expect([...orphans.rows].sort()).toEqual([...ORPHANS].sort());
    const filtered = await value<ReconcileRows>('reconcile.rows', { reconcileId: summary.reconcileId, set: 'orphans', filter: '%OFF' });
    expect(filtered).toMatchObject({ total: 5, matching: 1, rows: ['50%off'] });
    const near = await value<ReconcileRows>('reconcile.rows', { reconcileId: summary.reconcileId, set: 'nearMatches' });
    expect(near.rows).toEqual([{ service: ' Edge.Case ', application: 'edge.case', differences: ['edge-spaces', 'case'] }]);
    const inBoth = await value<ReconcileRows>('reconcile.rows', { reconcileId: summary.reconcileId, set: 'inBoth', filter: 'cafe\u0301' });
    expect(inBoth.rows).toEqual(['cafe\u0301']);
  });

  it('exports CSV with formula cells neutralised, and JSON with the uid arrays', async () => {
    const summary = await reconciled(applicationText());
    const csv = await value<ReconcileExportFile>('reconcile.export', { reconcileId: summary.reconcileId, format: 'csv' });
    expect(csv.fileName).toBe(`${summary.reference}.csv`);
    const rows = parse<string[]>(csv.content.trim()).data;
    expect(rows[0]).toEqual(['set', 'service_uid', 'application_uid', 'differences']);
    expect(rows).toContainEqual(['orphan', `'=HYPERLINK("x")`, '', '']);
    expect(rows).toContainEqual(['near-match', ' Edge.Case ', 'edge.case', 'edge-spaces case']);
    const json = JSON.parse((await value<ReconcileExportFile>('reconcile.export', { reconcileId: summary.reconcileId, format: 'json' })).content) as { orphans: string[]; missing: string[] };
    expect(json.missing).toEqual(['only-in-the-app']);
    expect(json.orphans).toHaveLength(5);
  });

  it('the orphans go to a batch through batch.preview and the typed count, under the reconciliation’s reference, and are erased', async () => {
    const summary = await reconciled(applicationText());
    const list = await value<ReconcileOrphanList>('reconcile.orphanList', { reconcileId: summary.reconcileId });
    expect(list).toMatchObject({ count: 5, reference: summary.reference });
    const preview = await value<BatchPreview>('batch.preview', { text: list.text, kind: 'list', sourceName: list.sourceName });
    expect(preview).toMatchObject({ items: 5, invalidCount: 0, duplicates: 0 });
    const refused = await dispatchBridgeCall(handlers, 'batch.start', { draftId: preview.draftId, profileId: profile.id, action: 'delete', confirmation: 'DELETE 4', reference: list.reference });
    expect(refused.ok).toBe(false);
    const { jobId } = await value<{ jobId: string }>('batch.start', { draftId: preview.draftId, profileId: profile.id, action: 'delete', confirmation: 'DELETE 5', reference: list.reference });
    expect(await finishedOf(jobId)).toMatchObject({ status: 'completed', result: { counts: { done: 5 } } });
    for (const uid of ORPHANS) expect((await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`).then((r) => r.json() as Promise<{ state: string }>)).state).toBe('deleted');
    const after = await reconciled(applicationText());
    expect(after.counts).toMatchObject({ orphans: 0, nearMatches: 1, serviceUsers: 232 });
    // A uid that is not an orphan is never handed to a batch.
    const notOrphan = await dispatchBridgeCall(handlers, 'reconcile.orphanList', { reconcileId: summary.reconcileId, uids: [' Edge.Case '] });
    expect(notOrphan).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('jobs.cancel stops the walk between pages: the job ends cancelled', async () => {
    let reached!: () => void;
    let release!: () => void;
    const reachedPage = new Promise<void>((resolve) => (reached = resolve));
    hold = { page: 2, reached, released: new Promise<void>((resolve) => (release = resolve)) };
    try {
      const { jobId } = await value<{ jobId: string }>('reconcile.start', { profileId: profile.id, text: 'a\nb', kind: 'list' });
      await reachedPage;
      expect(await value<{ cancelled: boolean }>('jobs.cancel', { jobId })).toEqual({ cancelled: true });
      release();
      expect(await finishedOf(jobId)).toEqual({ jobId, kind: 'reconcile', status: 'cancelled' });
    } finally {
      hold = null;
      release();
    }
  });

  it('a list with no valid uid fails the job with the reason, before any page is read', async () => {
    const { jobId } = await value<{ jobId: string }>('reconcile.start', { profileId: profile.id, text: 'uid\n', kind: 'list', sourceName: 'empty.txt' });
    expect(await finishedOf(jobId)).toMatchObject({ status: 'failed', error: { code: 'INVALID_INPUT', message: expect.stringContaining('No valid uid in empty.txt') } });
  });
});
