import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditExport, AuditReading, ChainVerdict } from '../shared/audit';
import type { AppInfo } from '../shared/contract';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

// Lines written before the chain existed (readable, unchained), with a broken line between them.
const legacy = (uid: string, reference: string) =>
  JSON.stringify({ at: '2026-11-20T10:00:00.000+01:00', action: 'delete', outcome: 'done', uid, reference, profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1:1', via: 'cli' });

let dataDir: string;
let handlers: BridgeHandlers;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-audit-handlers-'));
  await writeFile(join(dataDir, 'audit.jsonl'), `${legacy('=HYPERLINK("x")', 'REQ-1')}\nnull\n${legacy('bob', 'REQ-2')}\n`);
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', via: 'app' });
  const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'en-GB', keychain: desk.keychainStatus() });
  handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(() => undefined) });
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function value<T>(method: string, input: unknown): Promise<T> {
  const response = await dispatchBridgeCall(handlers, method, input);
  if (!response.ok) throw new Error(`${method} failed: ${response.error.code} ${response.error.message}`);
  return response.value as T;
}

describe('audit bridge', () => {
  it('audit.read returns every readable entry with its line and each bad line as corrupt, never failing as a whole', async () => {
    const reading = await value<AuditReading>('audit.read', {});
    expect(reading.entries.map((entry) => [entry.line, entry.uid])).toEqual([
      [1, '=HYPERLINK("x")'],
      [3, 'bob'],
    ]);
    expect(reading.corrupt).toEqual([expect.objectContaining({ line: 2, excerpt: 'null' })]);
    expect(reading.verdict).toMatchObject({ ok: false, kind: 'corrupt', line: 2 });
  });

  it('audit.verify answers the same verdict', async () => {
    expect(await value<ChainVerdict>('audit.verify', {})).toMatchObject({ ok: false, kind: 'corrupt', line: 2 });
  });

  it('audit.export sends what the filter keeps, with formula cells neutralised', async () => {
    const file = await value<AuditExport>('audit.export', { format: 'csv', filter: { reference: 'req-1' } });
    expect(file.count).toBe(1);
    expect(file.mimeType).toMatch(/^text\/csv/);
    expect(file.content).toContain(`'=HYPERLINK`);
    expect(file.content).not.toContain('bob');
  });

  it('audit.export refuses a filter it cannot read before any handler runs', async () => {
    const response = await dispatchBridgeCall(handlers, 'audit.export', { format: 'csv', filter: { since: 'last week' } });
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent' } });
    const extra = await dispatchBridgeCall(handlers, 'audit.export', { format: 'pdf' });
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
