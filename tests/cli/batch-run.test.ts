import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRun, DeskBatch } from '../../core/batch/batch-types';
import { progressLine } from '../../cli/batch-progress';
import { followRun } from '../../cli/batch-run';
import type { CliContext } from '../../cli/context';
import { createOutput } from '../../cli/output';
import { PrivacyDeskError } from '../../shared/errors';
import type { BatchCounts, BatchJobSummary } from '../../shared/batch';

const JOB = '20261122-201500-abcdef';
const COUNTS: BatchCounts = { done: 5, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 4 };

describe('batch progress line', () => {
  it('says done, failed, not found, remaining, rate and time left in words', () => {
    const line = progressLine({ batchId: JOB, total: 10, counts: COUNTS, inFlight: 2, ratePerSecond: 3.25, secondsLeft: 125, state: 'running' });
    expect(line).toMatch(/ 60% \| done 5 \| failed 0 \| not found 1 \| remaining 4 \| 3\.3\/s \| 2 min 05 s left$/);
  });

  it('says why it waits when the service asked to slow down, and what a cancel does', () => {
    expect(progressLine({ batchId: JOB, total: 10, counts: COUNTS, inFlight: 0, ratePerSecond: 0, state: 'waiting', waitSeconds: 29.2 })).toMatch(/\| waiting 30 s \(the service asked to slow down\)$/);
    expect(progressLine({ batchId: JOB, total: 10, counts: COUNTS, inFlight: 2, ratePerSecond: 1, state: 'stopping' })).toMatch(/\| stopping: 2 in flight finish, nothing more is sent$/);
  });
});

describe('a run stopped by an error (journal or audit cannot be written)', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  function stoppedBy(error: PrivacyDeskError) {
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-run-'));
    folders.push(dataDir);
    mkdirSync(join(dataDir, 'batches', JOB), { recursive: true });
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, stdin: Readable.from([]), env: {} };
    const context: CliContext = { io, out: createOutput(io) };
    const job = { batchId: JOB, total: 10, counts: COUNTS, state: 'unfinished' } as BatchJobSummary;
    const batch = {
      list: async () => [job],
      // eslint-disable-next-line require-yield -- a job with no failed rows
      results: async function* () {
        return;
      },
      exportResults: async () => ({ fileName: 'results.csv', mimeType: 'text/csv', content: 'line,uid\n', rows: 0 }),
    } as unknown as DeskBatch;
    const run: BatchRun = { batchId: JOB, total: 10, finished: Promise.reject(error) };
    const code = followRun(context, { batch, dataDir, json: true, resumeCommand: (id) => `privacy-desk batch resume ${id}` }, async () => run);
    return { code, output: () => ({ stdout, stderr }) };
  }

  it('an outcome the audit trail could not record: exit 4, the error in the JSON, and how to resume', async () => {
    const { code, output } = stoppedBy(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'done', message: 'The audit trail could not be written (disk full).' }));
    expect(await code).toBe(4);
    const { stdout, stderr } = output();
    expect(JSON.parse(stdout)).toMatchObject({ batchId: JOB, state: 'stopped', total: 10, counts: COUNTS, resultsFile: expect.stringMatching(/results\.csv$/), error: { code: 'AUDIT_WRITE_FAILED', outcome: 'done' } });
    expect(stderr).toMatch(/The run stopped:\nAUDIT_WRITE_FAILED: The audit trail could not be written \(disk full\)\./);
    expect(stderr).toContain(`4 items not finished: run privacy-desk batch resume ${JOB} to finish them`);
  });

  it('an error whose outcome is unknown: exit 3', async () => {
    const { code } = stoppedBy(new PrivacyDeskError({ code: 'SERVER_ERROR', outcome: 'unknown', message: 'The service failed.' }));
    expect(await code).toBe(3);
  });
});
