import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { writeResultsFile } from '../../core/batch/results';
import { useSandbox } from './helpers';

/** The batch results file is one more file on a disk that can fill up: its failure is typed and says what to do, never INTERNAL. */
describe('the results file of a batch cannot be written', () => {
  const sandbox = useSandbox({ users: 5 });
  let dataDir: string;
  let desk: Desk;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-results-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'tester' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('FILE_WRITE_FAILED naming the file, why and what to do; no half-written file is left', async () => {
    const preview = await desk.batch.preview({ source: 'never-1\nnever-2\n', sourceName: 'pasted list' });
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 1, confirmation: 'DELETE 2' });
    await run.finished;
    const jobDir = join(dataDir, 'batches', run.batchId);
    mkdirSync(join(jobDir, 'results.csv'));
    const error = await writeResultsFile(dataDir, run.batchId, 'csv').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'FILE_WRITE_FAILED', outcome: 'not-sent', quote: { from: 'system' } });
    expect((error as Error).message).toMatch(/^The file .*results\.csv could not be written: a folder stands where the file should be\. Make the file and its folder writable by you, then try again\./);
    expect(readdirSync(jobDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
