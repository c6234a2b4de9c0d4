import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditReceiptFile, BridgeResponse } from '../shared/contract';
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
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-receipt-handler-'));
  desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: '1.2.3' });
  handlers = createBridgeHandlers({ desk, appInfo: () => ({ version: '1.2.3', locale: 'en', keychain: desk.keychainStatus() }), jobs: createJobRegistry(() => {}) });
  desk.useTemporaryConnection({ baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
  await desk.erase({ profileId: 'temporary', action: 'anonymize', uid: 'alice@example.org', confirmUid: 'alice@example.org', reference: 'REQ-5' });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('audit.receipt over the bridge', () => {
  it('answers the PDF in base64 with its name, its act count and the chain head', async () => {
    const response = (await dispatchBridgeCall(handlers, 'audit.receipt', { reference: 'req-5', locale: 'fr' })) as BridgeResponse<AuditReceiptFile>;
    if (!response.ok) throw new Error(response.error.message);
    const { contentBase64, ...rest } = response.value;
    expect(rest).toMatchObject({ mimeType: 'application/pdf', acts: 1, chainVerified: true, headHash: (await desk.verifyAudit()).headHash });
    expect(rest.fileName).toMatch(/^privacy-desk-receipt-req-5-\d{8}-\d{6}\.pdf$/);
    expect(Buffer.from(contentBase64, 'base64').subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it.each<[Record<string, string>, string]>([
    [{ locale: 'en' }, 'neither a reference nor an act'],
    [{ reference: 'REQ-5', actId: 'x', locale: 'en' }, 'both'],
    [{ reference: 'REQ-5', locale: 'de' }, 'an unknown language'],
  ])('refuses %j (%s) at the bridge, before the core', async (input) => {
    const response = await dispatchBridgeCall(handlers, 'audit.receipt', input);
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('an unknown reference is NOT_FOUND, saying what to check', async () => {
    const response = await dispatchBridgeCall(handlers, 'audit.receipt', { reference: 'NOPE', locale: 'en' });
    expect(response).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: expect.stringMatching(/No act in the audit trail carries the reference “NOPE”/) } });
  });
});
