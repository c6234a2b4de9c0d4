import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchRun, DeskBatch } from '../../core/batch/batch-types';
import { createJob } from '../../core/batch/journal';
import { createBatchProgress, progressLine } from '../../cli/batch-progress';
import { followRun } from '../../cli/batch-run';
import type { CliContext } from '../../cli/context';
import { createOutput } from '../../cli/output';
import { PrivacyDeskError } from '../../shared/errors';
import type { BatchCounts, BatchJobSummary } from '../../shared/batch';

const JOB = '20261122-201500-abcdef';
const COUNTS: BatchCounts = { done: 5, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 4 };

describe('batch progress line', () => {
  it('says done, failed, not found, remaining, rate and time left in words', () => {
    const running = { batchId: JOB, total: 10, counts: COUNTS, inFlight: 2, ratePerSecond: 3.25, secondsLeft: 125, state: 'running' } as const;
    const words = '60% | done 5 | failed 0 | not found 1 | remaining 4 | 3.3/s | 2 min 05 s left';
    // A wide terminal has room for the bar (60% of it filled); a narrow one gets the words alone.
    expect(progressLine(running, 120)).toBe(`${'█'.repeat(18)}${'░'.repeat(12)} ${words}`);
    expect(progressLine(running, 80)).toBe(words);
  });

  it('says why it waits when the service asked to slow down, and what a cancel does', () => {
    expect(progressLine({ batchId: JOB, total: 10, counts: COUNTS, inFlight: 0, ratePerSecond: 0, state: 'waiting', waitSeconds: 29.2 }, 110)).toBe('60% | waiting 30 s (the service asked to slow down) | done 5 | failed 0 | not found 1 | remaining 4 | 0.0/s');
    expect(progressLine({ batchId: JOB, total: 10, counts: COUNTS, inFlight: 2, ratePerSecond: 1, state: 'stopping' }, 90)).toBe('60% | stopping (2 in flight) | done 5 | failed 0 | not found 1 | remaining 4 | 1.0/s');
  });
});

describe('batch progress on an 80-column terminal', () => {
  const big: BatchCounts = { done: 41_000, doneBeforeInterruption: 12, notFound: 1_234, failed: 321, unfinished: 57_433 };

  it('keeps the wait and its reason, done, failed and remaining within 79 columns', () => {
    const line = progressLine({ batchId: JOB, total: 100_000, counts: big, inFlight: 16, ratePerSecond: 123.4, state: 'waiting', waitSeconds: 120 }, 80);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toMatch(/^42% \| waiting 120 s \(slow down\) \| done 41012 \| failed 321 \| .*remaining 57433/);
  });

  it('a running line of a large batch fits too (the rate gives way first)', () => {
    const line = progressLine({ batchId: JOB, total: 100_000, counts: big, inFlight: 16, ratePerSecond: 123.4, secondsLeft: 7_000, state: 'running' }, 80);
    expect(line.length).toBeLessThanOrEqual(79);
    expect(line).toContain('done 41012 | failed 321 | not found 1234 | remaining 57433');
  });

  it('the bar’s line is cleared when it stops, so the summary starts on a clean line', () => {
    let written = '';
    const terminal = { isTTY: true, columns: 80, write: (text: string) => (written += text) };
    const view = createBatchProgress(terminal, { batchId: JOB, total: 10, counts: COUNTS, inFlight: 0, ratePerSecond: 1, state: 'running' });
    view.stop();
    // The cursor goes back to the bar's start and the line is erased: nothing of it is left after.
    // eslint-disable-next-line no-control-regex -- the terminal's escape codes are what is checked
    expect(written).toMatch(/remaining 4[^\n]*\u001b8\u001b\[1G\u001b\[2K$/);
  });
});

describe('a run stopped by an error (journal or audit cannot be written)', () => {
  const folders: string[] = [];
  afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /** A real job of 10 never-started items (so its results file can be written); its run ends with `error`. */
  async function stoppedBy(error: PrivacyDeskError) {
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-run-'));
    folders.push(dataDir);
    const journal = await createJob(dataDir, { action: 'delete', profileId: 'temporary', profileName: 'test', baseUrl: 'http://127.0.0.1:9', logoutFirst: false, total: 10, source: 'test.txt' });
    await journal.appendItems(Array.from({ length: 10 }, (_, i) => ({ line: i + 1, uid: `user-${i}` })));
    await journal.finishItems();
    await journal.close();
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, stdin: Readable.from([]), env: {} };
    const context: CliContext = { io, out: createOutput(io) };
    const job = { batchId: journal.jobId, total: 10, counts: COUNTS, state: 'unfinished' } as BatchJobSummary;
    // Only what followRun asks of desk.batch once a run is under way.
    const batch = { list: async () => [job] } as unknown as DeskBatch;
    const run: BatchRun = { batchId: journal.jobId, total: 10, finished: Promise.reject(error) };
    const code = await followRun(context, { batch, dataDir, json: true, resumeCommand: (id) => `privacy-desk batch resume ${id}` }, async () => run);
    return { code, jobId: journal.jobId, stdout, stderr };
  }

  it('an outcome the audit trail could not record: exit 4, the error in the JSON, the results file, and how to resume', async () => {
    const { code, jobId, stdout, stderr } = await stoppedBy(new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'done', message: 'The audit trail could not be written (disk full).' }));
    expect(code).toBe(4);
    const summary = JSON.parse(stdout) as { resultsFile: string };
    expect(summary).toMatchObject({ batchId: jobId, state: 'stopped', total: 10, counts: COUNTS, error: { code: 'AUDIT_WRITE_FAILED', outcome: 'done' } });
    expect(readFileSync(summary.resultsFile, 'utf8').trim().split('\n')).toHaveLength(11);
    expect(stderr).toMatch(/The run stopped:\nAUDIT_WRITE_FAILED: The audit trail could not be written \(disk full\)\./);
    expect(stderr).toContain(`4 items not finished: run privacy-desk batch resume ${jobId} to finish them`);
  });

  it('an error whose outcome is unknown: exit 3', async () => {
    const { code } = await stoppedBy(new PrivacyDeskError({ code: 'SERVER_ERROR', outcome: 'unknown', message: 'The service failed.' }));
    expect(code).toBe(3);
  });
});

describe('the end of a run with failed items', () => {
  it('exit 1; names the first failed items with their line and reason, and where to see them all', async () => {
    let stdout = '';
    let stderr = '';
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, stdin: Readable.from([]), env: {} };
    const context: CliContext = { io, out: createOutput(io) };
    const counts: BatchCounts = { done: 1, doneBeforeInterruption: 0, notFound: 0, failed: 2, unfinished: 0 };
    const batch = {
      results: async function* () {
        yield { line: 2, uid: 'ok', outcome: 'done' };
        yield { line: 3, uid: 'evil\u202egnp', outcome: 'failed', reason: 'The service kept answering 503 (5 attempts).' };
        yield { line: 4, uid: 'other', outcome: 'failed', reason: 'Refused by the service (403).' };
      },
    } as unknown as DeskBatch;
    const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-run-'));
    try {
      const run: BatchRun = { batchId: JOB, total: 3, finished: Promise.resolve({ batchId: JOB, total: 3, counts, state: 'finished' }) };
      const code = await followRun(context, { batch, dataDir, json: false, resumeCommand: (id) => `privacy-desk batch resume ${id}` }, async () => run);
      expect(code).toBe(1);
      expect(stdout).toContain(`Batch ${JOB}: finished.\n  done:          1\n  not found:     0 (already erased, or never existed)\n  failed:        2\n`);
      expect(stdout).toContain('Failed items:\n  line 3: “evil\\u202egnp” — The service kept answering 503 (5 attempts).\n  line 4: “other” — Refused by the service (403).\n');
      expect(stdout).toContain(`Every failed item and its reason: privacy-desk batch results ${JOB} (outcome "failed").`);
      // No job on disk here: the results file is a warning, not a failure of the run.
      expect(stderr).toMatch(/Warning: the results file could not be written/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
