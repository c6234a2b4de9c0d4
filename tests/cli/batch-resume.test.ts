import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJob } from '../../core/batch/journal';
import { startCliFixture, type CliFixture } from './cli-harness';
import { erasuresSent, runBatchCli, sandboxUids } from './batch-harness';

describe('privacy-desk batch resume (a journal left by a crash)', () => {
  let f: CliFixture;
  let uids: string[];

  beforeAll(async () => {
    f = await startCliFixture(12);
    uids = (await sandboxUids(f)).slice(0, 5);
  });
  afterAll(() => f.close());

  it('with no unfinished job says so and exits 0', async () => {
    const { code, stdout } = await runBatchCli(f, ['batch', 'resume']);
    expect(code).toBe(0);
    expect(stdout).toContain('No unfinished batch job: nothing to resume');
  });

  it('finishes only the unfinished items: recorded done ones are never sent, the one in flight is re-checked', async () => {
    // As a killed run leaves it: items 0 and 1 recorded done, item 2 started (in flight), 3 and 4 never started.
    const journal = await createJob(f.dataDir, {
      action: 'delete',
      profileId: 'temporary',
      profileName: 'sandbox (--base-url)',
      baseUrl: f.sandbox.url,
      logoutFirst: false,
      total: uids.length,
      source: 'crash-test.txt',
    });
    await journal.appendItems(uids.map((uid, i) => ({ line: i + 1, uid })));
    await journal.finishItems();
    await journal.recordStarted([0, 1, 2]);
    await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    await journal.recordOutcome({ item: 1, outcome: 'done', status: 200 });
    await journal.close();

    const wrong = await runBatchCli(f, ['batch', 'resume', journal.jobId, '--yes', 'DELETE 5']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/give --yes "DELETE 3"\. Nothing was sent\./);
    expect(wrong.stdout).toMatch(/so far: +5 items: 2 done, 0 not found, 0 failed, 3 unfinished/);
    expect(wrong.stdout).toMatch(/sessions: +not ended first \(as confirmed when the job started\)/);
    // The preview names the unfinished items, not the ones already done.
    expect(wrong.stdout).toContain(`first:        ${uids.slice(2).map((uid) => `“${uid}”`).join(', ')}\n`);
    expect(wrong.stdout).not.toContain('last:');

    const { code, stdout, stderr } = await runBatchCli(f, ['batch', 'resume', journal.jobId, '--yes', 'DELETE 3']);
    expect(stderr).not.toMatch(/^[A-Z_]+: /m);
    expect(stderr).toContain(`Batch ${journal.jobId}: 3 items to go.`);
    expect(code).toBe(0);
    expect(stdout).toMatch(/done: +5\n/);
    // Recorded done: not sent again (in the sandbox they were never erased, which shows nothing was sent).
    for (const uid of uids.slice(0, 2)) {
      expect(erasuresSent(f, uid)).toBe(0);
      expect((await f.sandboxUser(uid)).body?.state).toBe('active');
    }
    for (const uid of uids.slice(2)) {
      expect(erasuresSent(f, uid)).toBe(1);
      expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
    }

    const again = await runBatchCli(f, ['batch', 'resume', journal.jobId]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Batch ${journal.jobId} is finished`);
  });

  it('a job run with --base-url needs it again, for the same service', async () => {
    const journal = await createJob(f.dataDir, {
      action: 'delete',
      profileId: 'temporary',
      profileName: 'sandbox (--base-url)',
      baseUrl: 'https://elsewhere.example',
      logoutFirst: false,
      total: 1,
      source: 'other.txt',
    });
    await journal.appendItems([{ line: 1, uid: 'someone' }]);
    await journal.finishItems();
    await journal.close();
    const { code, stderr } = await runBatchCli(f, ['batch', 'resume', journal.jobId, '--yes', 'DELETE 1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/was confirmed for https:\/\/elsewhere\.example, not http:\/\/127\.0\.0\.1:\d+\. Nothing was sent\./);
  });
});
