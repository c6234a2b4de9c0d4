import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wordInEnglish } from '../../shared/messages';
import { jobPaths, type BatchPlan } from './job-files';
import { listJobs, mostRecentUnfinished } from './job-list';
import { createJob } from './journal';

const plan = (total: number): BatchPlan => ({ action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total, source: 'uids.txt' });

/** An unfinished job as Privacy Desk writes it: three items, the first done. */
async function unfinishedJob(dir: string) {
  const journal = await createJob(dir, plan(3));
  await journal.appendItems([0, 1, 2].map((index) => ({ line: index + 1, uid: `user-${index}` })));
  await journal.finishItems();
  await journal.recordStarted([0]);
  await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
  await journal.close();
  return { jobId: journal.jobId, paths: jobPaths(dir, journal.jobId) };
}

function replaceLine(path: string, index: number, text: string): void {
  const lines = readFileSync(path, 'utf8').split('\n');
  lines[index] = text;
  writeFileSync(path, lines.join('\n'));
}

/**
 * A job whose files cannot be used is not left out of the list: it is shown as damaged, with the file, the line and
 * why, what it means and what to do — and it is never offered for resuming.
 */
describe('a damaged job in the job list', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-job-list-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('a plan that fails validation: listed as damaged, naming plan.json and the field, never as resumable', async () => {
    const { jobId, paths } = await unfinishedJob(dir);
    const stored = JSON.parse(readFileSync(paths.plan, 'utf8')) as Record<string, unknown>;
    writeFileSync(paths.plan, JSON.stringify({ ...stored, action: 'anonymise' }));

    const { jobs, damaged } = await listJobs(dir);
    expect(jobs).toEqual([]);
    expect(damaged).toEqual([
      {
        jobId,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        file: 'plan.json',
        path: paths.plan,
        text: { id: 'batch.damaged.file', params: { path: paths.plan, why: { id: 'batch.file.notAsWritten' }, job: jobId } },
        quote: { from: 'system', text: expect.stringContaining('action') },
      },
    ]);
    const english = wordInEnglish(damaged[0]!.text);
    expect(english).toContain(`batch job ${jobId} cannot be resumed: nothing more will be sent from it`);
    expect(english).toContain('start the uids it did not finish as a new batch');
    expect(await mostRecentUnfinished(dir)).toBeNull();
  });

  it('a plan that is not JSON, or is missing beside its items, or names another job', async () => {
    const notJson = await unfinishedJob(dir);
    writeFileSync(notJson.paths.plan, '{"action": "delete", ');
    const missing = await unfinishedJob(dir);
    rmSync(missing.paths.plan);
    const otherJob = await unfinishedJob(dir);
    const stored = JSON.parse(readFileSync(otherJob.paths.plan, 'utf8')) as Record<string, unknown>;
    writeFileSync(otherJob.paths.plan, JSON.stringify({ ...stored, jobId: notJson.jobId }));

    const { jobs, damaged } = await listJobs(dir);
    expect(jobs).toEqual([]);
    const why = Object.fromEntries(damaged.map((job) => [job.jobId, (job.text.params as { why: unknown }).why]));
    expect(why).toEqual({
      [notJson.jobId]: { id: 'batch.file.notJson' },
      [missing.jobId]: { id: 'batch.file.missing' },
      [otherJob.jobId]: { id: 'batch.file.otherJob', params: { job: notJson.jobId } },
    });
  });

  it('an item line or a journal line of the wrong shape: damaged, naming the file and the line, with what the plan says', async () => {
    const items = await unfinishedJob(dir);
    replaceLine(items.paths.items, 1, JSON.stringify({ line: 2, uid: ['user-1'] }));
    const journal = await unfinishedJob(dir);
    replaceLine(journal.paths.journal, 1, readFileSync(journal.paths.journal, 'utf8').split('\n')[1]!.replace('"done"', '"Done"'));
    const healthy = await unfinishedJob(dir);

    const { jobs, damaged } = await listJobs(dir);
    expect(jobs.map((job) => job.jobId)).toEqual([healthy.jobId]);
    const byId = Object.fromEntries(damaged.map((job) => [job.jobId, job]));
    expect(byId[items.jobId]).toMatchObject({
      file: 'items.jsonl',
      line: 2,
      text: { id: 'batch.damaged.line', params: { line: 2, path: items.paths.items, why: { id: 'batch.file.notAsWritten' } } },
      quote: { from: 'system', text: expect.stringContaining('uid') },
      plan: { action: 'delete', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', total: 3, source: 'uids.txt' },
    });
    expect(byId[journal.jobId]).toMatchObject({
      file: 'journal.jsonl',
      line: 2,
      text: { id: 'batch.damaged.line', params: { line: 2, path: journal.paths.journal, why: { id: 'batch.file.notEvent', params: { count: 1 } } } },
    });
    // Only the healthy job is offered.
    expect((await mostRecentUnfinished(dir))?.jobId).toBe(healthy.jobId);
  });

  it('a plan that cannot be read: damaged, saying it cannot be read and the system’s code', async () => {
    const { jobId, paths } = await unfinishedJob(dir);
    // A folder where the plan should be: reading it fails whoever runs the test (file modes do not stop root).
    rmSync(paths.plan);
    mkdirSync(paths.plan);
    const { damaged } = await listJobs(dir);
    expect(damaged).toMatchObject([{ jobId, file: 'plan.json', text: { id: 'batch.damaged.unreadable', params: { path: paths.plan, job: jobId } }, quote: { from: 'system', text: 'EISDIR' } }]);
  });
});
