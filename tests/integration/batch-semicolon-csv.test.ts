import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchCheckResult, BatchPreview } from '../../shared/batch';
import type { AppInfo, BridgeResponse, ProfileView } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import type { JobFinished } from '../../shared/jobs';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import { createBridgeEventHub } from '../../handlers/bridge-event-hub';
import { createBridgeHandlers } from '../../handlers/create-bridge-handlers';
import { dispatchBridgeCall } from '../../handlers/dispatch';
import { createJobRegistry } from '../../handlers/jobs';
import type { BridgeHandlers } from '../../handlers/types';

/** The file a French Excel saves: semicolons, a BOM, CRLF line ends (`uid;référence` / `user-000070;DSR-1` / `user-000071;DSR-2`). */
const EXCEL_FR = readFileSync(fileURLToPath(new URL('./fixtures/excel-fr.csv', import.meta.url)), 'utf8');

/**
 * The console's batch preview (batch.preview over the bridge, as the window calls it with a file's text):
 * a semicolon CSV is read as CSV with its columns, never as a list whose header row becomes a uid to
 * erase; rows of columns are not read whole as uids; the operator may choose the separator.
 */
describe('batch.preview: the separator of a CSV file, as the console reads it', () => {
  const SECRET = 'semicolon-bridge-secret-7a1c3e5b9d0f2a4c6e8b1d3f5a7c9e0b2d4f6a8c1e3b5d7f9a0c2e4b6d8f1a3c';
  let sandbox: RunningSandbox;
  let dataDir: string;
  let handlers: BridgeHandlers;
  let profile: ProfileView;
  const finished = new Map<string, (payload: JobFinished) => void>();

  const call = (method: string, input: unknown): Promise<BridgeResponse<unknown>> => dispatchBridgeCall(handlers, method, input);
  async function value<T>(method: string, input: unknown): Promise<T> {
    const response = await call(method, input);
    if (!response.ok) throw new Error(`${method}: ${response.error.code} ${response.error.message}`);
    return response.value as T;
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, users: 80, apiSecret: SECRET });
    dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-semicolon-'));
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', via: 'app' });
    const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'fr-FR', keychain: desk.keychainStatus() });
    const hub = createBridgeEventHub();
    hub.subscribe((event) => {
      if (event.name === 'job.finished') finished.get(event.payload.jobId)?.(event.payload);
    });
    handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(hub.emit) });
    profile = await value<ProfileView>('profiles.save', { name: 'Bac à sable', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, apiKey: sandbox.credentials.apiKey, apiSecret: SECRET });
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('reads the French Excel file as CSV separated by semicolons: 2 uids and their references, no header among them; the check finds both', async () => {
    expect(EXCEL_FR).toBe('\uFEFFuid;référence\r\nuser-000070;DSR-1\r\nuser-000071;DSR-2\r\n');
    const preview = await value<BatchPreview>('batch.preview', { text: EXCEL_FR, sourceName: 'excel-fr.csv' });
    expect(preview).toMatchObject({ kind: 'csv', separator: 'semicolon', columns: ['uid', 'référence'], uidColumn: { index: 0, name: 'uid' }, items: 2, invalidCount: 0, firstUids: ['user-000070', 'user-000071'] });
    // The reference column, picked by name as the console's select does.
    const withReference = await value<BatchPreview>('batch.preview', { text: EXCEL_FR, sourceName: 'excel-fr.csv', referenceColumn: 'référence', hasHeader: true });
    expect(withReference).toMatchObject({ items: 2, withReference: 2 });

    const { jobId } = await value<{ jobId: string }>('batch.check', { draftId: preview.draftId, profileId: profile.id });
    const done = await new Promise<JobFinished>((resolve) => finished.set(jobId, resolve));
    expect(done).toMatchObject({ status: 'completed' });
    expect((done as Extract<JobFinished, { status: 'completed' }>).result as BatchCheckResult).toMatchObject({ existing: 2, missing: 0 });
  });

  it('refuses rows of columns the guess would read as a list, saying what to choose; nothing is kept', async () => {
    const rows = 'DSR-3;user-000072\r\nDSR-4;user-000073\r\n';
    const refused = await call('batch.preview', { text: rows, sourceName: 'rows.csv' });
    expect(refused.ok).toBe(false);
    const error = (refused as { error: ErrorInfo }).error;
    expect(error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent', text: { id: 'batch.listLooksDelimited', params: { count: 2, lines: 2, line: 1, excerpt: 'DSR-3;user-000072' } } });
    // The operator's choices in the input options: the semicolon and the uid column, or each line whole.
    const split = await value<BatchPreview>('batch.preview', { text: rows, sourceName: 'rows.csv', separator: 'semicolon', uidColumn: 1, referenceColumn: 0 });
    expect(split).toMatchObject({ kind: 'csv', separator: 'semicolon', items: 2, withReference: 2, firstUids: ['user-000072', 'user-000073'] });
    const whole = await value<BatchPreview>('batch.preview', { text: rows, sourceName: 'rows.csv', kind: 'list' });
    expect(whole).toMatchObject({ kind: 'list', firstUids: ['DSR-3;user-000072', 'DSR-4;user-000073'] });
    // A list has no separator: a call that says both is refused as it is.
    expect(await call('batch.preview', { text: rows, kind: 'list', separator: 'semicolon' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
