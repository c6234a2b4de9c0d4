import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob, resumeJob } from '../../core/batch/journal';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, TEMPORARY_PROFILE_ID } from '../../core/desk';
import { jobPaths } from '../../core/batch/job-files';
import { startCliFixture, type CliFixture } from './cli-harness';
import { erasuresSent, runBatchCli, sandboxUids } from './batch-harness';

interface RunJson {
  batchId: string;
  state: string;
  counts: { done: number; doneBeforeInterruption: number; notFound: number; failed: number; unfinished: number };
  resultsFile: string | null;
}

/** A batch run to its end in this process, as the CLI's `--base-url` connection runs it, each item tried for a few attempts only. */
async function failedRun(f: CliFixture, uids: string[]): Promise<{ batchId: string; counts: RunJson['counts'] }> {
  const desk = createDesk({ dataDir: f.dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'test', batchSleep: async () => undefined, batchRetryForMs: 100 });
  const { applicationName } = f.sandbox.credentials;
  desk.useTemporaryConnection({ baseUrl: f.sandbox.url, applicationName, credentials: f.sandbox.credentials });
  const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'requests.txt' });
  const run = await desk.batch.start({ draftId: preview.draftId, profileId: TEMPORARY_PROFILE_ID, action: 'delete', logoutFirst: false, concurrency: 4, confirmation: `DELETE ${uids.length}` });
  const { batchId, counts } = await run.finished;
  await desk.settleAudit();
  return { batchId, counts };
}

const csvRows = (path: string) => Papa.parse<Record<string, string>>(readFileSync(path, 'utf8').trim(), { header: true }).data;

describe('privacy-desk batch retry JOB: the failed items sent again, as the same job', () => {
  let f: CliFixture;
  let uids: string[];

  beforeAll(async () => {
    f = await startCliFixture(12);
    uids = (await sandboxUids(f)).slice(0, 8);
  });
  afterAll(() => f.close());

  it('checks first: a failed uid erased since is recorded and not sent; only the others are sent, after their count is typed', async () => {
    const [alice, bob, carol] = uids as [string, string, string];
    const ghost = 'never-existed-retry';
    // The service answers 200 with a body that says the erasure failed: each attempt's outcome is unknown, retried,
    // then failed. Run in this process with a small retry budget and no backoff waits: the CLI tries an item for minutes.
    f.sandbox.setVariants({ erasureResponse: 'error-200' });
    const job = await failedRun(f, [alice, bob, carol, ghost]);
    f.sandbox.setVariants({ erasureResponse: 'json' });
    expect(job.counts).toEqual({ done: 0, doneBeforeInterruption: 0, notFound: 1, failed: 3, unfinished: 0 });
    const tries = Object.fromEntries([alice, bob, carol, ghost].map((uid) => [uid, erasuresSent(f, uid)]));
    expect(tries[alice]).toBeGreaterThan(1);

    // Someone erases bob meanwhile (by hand, from the CLI): the check finds him gone.
    expect((await f.cli(['users', 'delete', bob, '--confirm', bob, '--no-logout-first'])).code).toBe(0);
    const bobBefore = erasuresSent(f, bob);

    // Without --yes and without a terminal: the check, what is about to happen, and the phrase to type; nothing sent.
    const asked = await runBatchCli(f, ['batch', 'retry', job.batchId]);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toMatch(/Checked against the service \(\d+ users read\): 2 of 3 failed uids are still there and sent again; 1 is not\./);
    expect(asked.stdout).toContain(`No longer on the service (recorded without sending: 1 done before an interruption (an earlier attempt got no clear answer)):\n    “${bob}”\n`);
    expect(asked.stdout).toContain(`About to send the failed items of batch ${job.batchId} again — irreversible:`);
    expect(asked.stdout).toMatch(/so far: +4 items: 0 done, 1 not found, 3 failed, 0 unfinished/);
    expect(asked.stdout).toMatch(/to send: +2 failed items again, each still on the service at the check/);
    expect(asked.stdout).toContain(`first:        “${alice}”, “${carol}”\n`);
    expect(asked.stderr).toContain(`privacy-desk batch retry ${job.batchId} --base-url`);
    expect(asked.stderr).toMatch(/with --yes "DELETE 2" to confirm deleting these 2 users\. Nothing was sent\./);
    const wrong = await runBatchCli(f, ['batch', 'retry', job.batchId, '--yes', 'DELETE 3']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/give --yes "DELETE 2"\. Nothing was sent\./);
    for (const uid of [alice, carol, ghost]) expect(erasuresSent(f, uid)).toBe(tries[uid]);
    expect((await f.cli(['batch', 'list', '--json'], { connection: false })).stdout).toContain('"failed": 3');

    const retried = await runBatchCli(f, ['batch', 'retry', job.batchId, '--yes', 'DELETE 2', '--json']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain(`Batch ${job.batchId}: 2 items to go.`);
    const summary = JSON.parse(retried.stdout) as RunJson;
    expect(summary).toMatchObject({ batchId: job.batchId, state: 'finished', counts: { done: 2, doneBeforeInterruption: 1, notFound: 1, failed: 0, unfinished: 0 } });
    // Sent once more each, the failed ones still there; bob (gone) and the ghost (not found) never again.
    expect(erasuresSent(f, alice)).toBe(tries[alice]! + 1);
    expect(erasuresSent(f, carol)).toBe(tries[carol]! + 1);
    expect(erasuresSent(f, bob)).toBe(bobBefore);
    expect(erasuresSent(f, ghost)).toBe(tries[ghost]);
    for (const uid of [alice, carol]) expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');

    // The same job's results file: one row per item, each retried row with its new outcome.
    expect(summary.resultsFile).toBe(`${jobPaths(f.dataDir, job.batchId).dir}/results.csv`);
    const rows = csvRows(summary.resultsFile!);
    expect(rows.map((row) => [row.uid, row.outcome])).toEqual([
      [alice, 'done'],
      [bob, 'done-before-interruption'],
      [carol, 'done'],
      [ghost, 'not-found'],
    ]);
    expect(rows[0]).toMatchObject({ status: '200', reason: '' });
    expect(rows[1]?.reason).toMatch(/^Not sent again: the check before sending the failed items again did not find this uid on the service\./);

    // The job's counts everywhere: the list, and the audit trail's summary of the new run under the same job.
    const listed = JSON.parse((await f.cli(['batch', 'list', '--json'], { connection: false })).stdout) as { jobs: Array<{ batchId: string; state: string; counts: RunJson['counts'] }> };
    expect(listed.jobs.find((entry) => entry.batchId === job.batchId)).toMatchObject({ state: 'finished', counts: summary.counts });
    const ofJob = f.auditLines().filter((entry) => entry.jobId === job.batchId);
    const summaries = ofJob.filter((entry) => entry.action === 'batch').map((entry) => entry.batch);
    expect(summaries).toEqual([
      { operation: 'delete', total: 4, done: 0, doneBeforeInterruption: 0, notFound: 1, failed: 3, unfinished: 0, ended: 'finished' },
      { operation: 'delete', total: 4, done: 2, doneBeforeInterruption: 1, notFound: 1, failed: 0, unfinished: 0, ended: 'finished' },
    ]);
    const attempted = (uid: string) => ofJob.filter((entry) => entry.uid === uid && entry.action === 'delete' && entry.outcome === 'attempted').length;
    expect([alice, bob, carol, ghost].map(attempted)).toEqual([tries[alice]! + 1, tries[bob], tries[carol]! + 1, tries[ghost]]);
    const audited = await f.cli(['audit', 'list', '--operation', 'batch'], { connection: false });
    expect(audited.stdout).toContain('summary: delete 4: 0 done, 1 not found, 3 failed, 0 unfinished (finished)');
    expect(audited.stdout).toContain('summary: delete 4: 3 done (1 of them before an interruption), 1 not found, 0 failed, 0 unfinished (finished)');

    const again = await runBatchCli(f, ['batch', 'retry', job.batchId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Batch ${job.batchId} has no failed items: nothing to send again`);
  });

  it('--no-check sends every failed item again and nothing else: done and not-found items are never sent', async () => {
    const items = uids.slice(3, 8);
    // As a run leaves it: 0 and 1 done, 2 failed after answers of unknown outcome, 3 refused at once, 4 not found.
    const journal = await createJob(f.dataDir, { action: 'delete', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: f.sandbox.url, logoutFirst: false, total: 5, source: 'failed.txt' });
    await journal.appendItems(items.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    await journal.recordStarted([0, 1, 2, 3, 4]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    await journal.recordOutcome({ item: 1, outcome: 'done', status: 200 });
    await journal.recordOutcome({ item: 2, outcome: 'unknown-retry', status: 503 });
    await journal.recordOutcome({ item: 3, outcome: 'failed', status: 422, reason: 'Refused by the service (422).' });
    await journal.recordOutcome({ item: 4, outcome: 'not-found', status: 404 });
    await journal.recordStarted([2]);
    await journal.recordOutcome({ item: 2, outcome: 'failed', status: 503, reason: 'Tried 2 times.' });
    await journal.close();

    const asked = await runBatchCli(f, ['batch', 'retry', journal.jobId, '--no-check']);
    expect(asked.code).toBe(2);
    expect(asked.stdout).toContain('Not looked up (--no-check): every failed item is sent again (2 items).');
    expect(asked.stdout).toContain(`first:        “${items[2]}”, “${items[3]}”\n`);
    expect(asked.stderr).toMatch(/batch retry \S+ --base-url .* --no-check again with --yes "DELETE 2"/);

    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'retry', journal.jobId, '--no-check', '--yes', 'DELETE 2']);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/done: +4\n/);
    expect(stdout).toMatch(/not found: +1 /);
    expect(items.map((uid) => erasuresSent(f, uid))).toEqual([0, 0, 1, 1, 0]);
    // Recorded done in the journal, never sent: still there in the sandbox.
    for (const uid of items.slice(0, 2)) expect((await f.sandboxUser(uid)).body?.state).toBe('active');
    const rows = csvRows(`${jobPaths(f.dataDir, journal.jobId).dir}/results.csv`);
    expect(rows.map((row) => row.outcome)).toEqual(['done', 'done', 'done', 'done', 'not-found']);
  });

  it('when the check finds no failed uid on the service, nothing is sent and no phrase is asked: the outcomes are recorded, the run audited', async () => {
    const journal = await createJob(f.dataDir, { action: 'anonymize', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: f.sandbox.url, logoutFirst: false, total: 1, source: 'gone.txt' });
    await journal.appendItems([{ line: 1, uid: 'gone-before-retry' }]);
    await journal.finishItems();
    await journal.recordStarted([0]);
    await journal.recordOutcome({ item: 0, outcome: 'failed', status: 422, reason: 'Refused by the service (422).' });
    await journal.close();
    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'retry', journal.jobId, '--json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('Nothing to send: no failed uid is on the service any more.');
    // Refused, it never reached the service: gone now, it is "not found".
    expect(JSON.parse(stdout)).toMatchObject({ state: 'finished', counts: { done: 0, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0 } });
    expect(erasuresSent(f, 'gone-before-retry')).toBe(0);
    const summaries = f.auditLines().filter((entry) => entry.jobId === journal.jobId && entry.action === 'batch').map((entry) => entry.batch);
    expect(summaries).toEqual([{ operation: 'anonymize', total: 1, done: 0, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0, ended: 'finished' }]);
  });

  it('a retry cut short after its items were turned back to unfinished (a crash, a kill) is finished by batch resume', async () => {
    const items = ['crash-a', 'crash-b'];
    const journal = await createJob(f.dataDir, { action: 'delete', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: f.sandbox.url, logoutFirst: false, total: 2, source: 'crash.txt' });
    await journal.appendItems(items.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    await journal.recordStarted([0, 1]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    await journal.recordOutcome({ item: 1, outcome: 'failed', status: 503, reason: 'Tried 4 times.' });
    await journal.close();
    // What a retry leaves when its process dies right after its durable 'retry' line, before the run sends anything.
    const retrying = await resumeJob(f.dataDir, journal.jobId);
    await retrying.recordRetry([{ item: 1, recheck: true }]);
    await retrying.close();

    const listed = JSON.parse((await f.cli(['batch', 'list', '--json'], { connection: false })).stdout) as { jobs: Array<{ batchId: string; state: string; counts: RunJson['counts'] }> };
    expect(listed.jobs.find((entry) => entry.batchId === journal.jobId)).toMatchObject({ state: 'unfinished', counts: { done: 1, failed: 0, unfinished: 1 } });
    const resumed = await runBatchCli(f, ['batch', 'resume', journal.jobId, '--yes', 'DELETE 1', '--json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Sent as an item whose earlier attempt may have reached the service: the 404 of a uid no one has is "done before".
    expect(JSON.parse(resumed.stdout)).toMatchObject({ state: 'finished', counts: { done: 1, doneBeforeInterruption: 1, failed: 0, unfinished: 0 } });
    expect(erasuresSent(f, 'crash-b')).toBe(1);
    expect(erasuresSent(f, 'crash-a')).toBe(0);
  });

  it('refuses a job with unfinished items (resume it first) and an unknown job, before anything is sent', async () => {
    const journal = await createJob(f.dataDir, { action: 'delete', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: f.sandbox.url, logoutFirst: false, total: 2, source: 'half.txt' });
    await journal.appendItems([{ line: 1, uid: 'half-a' }, { line: 2, uid: 'half-b' }]);
    await journal.finishItems();
    await journal.recordStarted([0]);
    await journal.recordOutcome({ item: 0, outcome: 'failed', status: 422 });
    await journal.close();
    const before = f.sandbox.stats().apiRequests;
    const unfinished = await runBatchCli(f, ['batch', 'retry', journal.jobId, '--yes', 'DELETE 1']);
    expect(unfinished.code).toBe(2);
    expect(unfinished.stderr).toMatch(/has 1 unfinished item: finish it first \(privacy-desk batch resume \S+ --base-url .*\), then send its failed items again\. Nothing was sent\./);
    const unknown = await runBatchCli(f, ['batch', 'retry', '20000101-000000-000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No batch job 20000101-000000-000000 in this data folder');
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });
});
