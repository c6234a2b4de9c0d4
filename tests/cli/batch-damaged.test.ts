import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobPaths } from '../../core/batch/job-files';
import { createJob } from '../../core/batch/journal';
import { sandboxUids } from './batch-harness';
import { startCliFixture, type CliFixture } from './cli-harness';

/**
 * A job whose plan was changed outside Privacy Desk does not vanish from `batch list`: it is listed as damaged,
 * with the file and why, what it means and what to do; `batch resume` refuses it by name and never picks it.
 */
describe('privacy-desk batch list and resume with a damaged job', () => {
  let f: CliFixture;
  let jobId: string;
  let planPath: string;

  beforeAll(async () => {
    f = await startCliFixture(3);
    const uids = await sandboxUids(f);
    const journal = await createJob(f.dataDir, { action: 'delete', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: f.sandbox.url, logoutFirst: false, total: uids.length, source: 'uids.txt' });
    await journal.appendItems(uids.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    await journal.close();
    jobId = journal.jobId;
    planPath = jobPaths(f.dataDir, jobId).plan;
    const plan = JSON.parse(readFileSync(planPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(planPath, JSON.stringify({ ...plan, action: 'anonymise' }));
  });
  afterAll(() => f.close());

  it('batch list shows it as damaged: which file, why, that nothing more will be sent, what to do', async () => {
    const { code, stdout } = await f.cli(['batch', 'list'], { connection: false });
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^${jobId} .* damaged +- +- +- +-\\n`, 'm'));
    expect(stdout).toContain(`Damaged job ${jobId}: ${planPath} cannot be used (a field is not as Privacy Desk writes it), so batch job ${jobId} cannot be resumed: nothing more will be sent from it.`);
    expect(stdout).toContain('start the uids it did not finish as a new batch. (action: ');
    expect(stdout).not.toContain('Finish an unfinished job');

    const json = await f.cli(['batch', 'list', '--json'], { connection: false });
    const listed = JSON.parse(json.stdout) as { jobs: unknown[]; damaged: Array<Record<string, unknown>> };
    expect(listed.jobs).toEqual([]);
    expect(listed.damaged).toMatchObject([{ batchId: jobId, file: 'plan.json', path: planPath, text: { id: 'batch.damaged.file' }, message: expect.stringContaining('nothing more will be sent from it') }]);
  });

  it('batch resume refuses it by name, and without a job id does not pick it; nothing is sent', async () => {
    const before = f.sandbox.stats().apiRequests;
    const named = await f.cli(['batch', 'resume', jobId, '--yes', 'DELETE 3']);
    expect(named.code).not.toBe(0);
    expect(named.stderr).toContain(`batch job ${jobId} cannot be resumed: nothing more will be sent from it`);
    const any = await f.cli(['batch', 'resume', '--yes', 'DELETE 3']);
    expect(any.code).toBe(0);
    expect(any.stdout).toContain('No unfinished batch job: nothing to resume');
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });
});
