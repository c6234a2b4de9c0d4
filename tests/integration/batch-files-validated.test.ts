import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { draftsDir } from '../../core/batch/drafts';
import { jobPaths } from '../../core/batch/job-files';
import { createJob } from '../../core/batch/journal';
import { readJobState } from '../../core/batch/job-state';
import { batchConfirmationPhrase } from '../../shared/batch';
import { useSandbox } from './helpers';

// Batch files are read back from the data folder, where anything can change them. A plan whose action is not
// one of ours (the British 'anonymise' once reached the gate, and DELETE is sent for anything but 'anonymize'),
// or an item or journal line of the wrong shape, must stop the job before anything is sent, with an error that
// names the file. The sandbox's own request counts (GET /sandbox/stats) say what reached it.

describe('a batch file read back from disk is validated before anything is sent', () => {
  const sandbox = useSandbox({ users: 10 });
  let dataDir: string;
  let desk: Desk;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-files-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'support-agent' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const seededUids = async (count: number) => (await desk.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid ? [user.uid] : [])).slice(0, count);

  interface Stats { apiRequests: number; logoutRequests: number; tokenRequests: { authentication: number; public: number } }
  const stats = async (): Promise<Stats> => (await fetch(`${sandbox.current.url}/sandbox/stats`)).json() as Promise<Stats>;
  const resetStats = async () => void (await fetch(`${sandbox.current.url}/sandbox/stats/reset`, { method: 'POST' }));
  const NOTHING_SENT: Stats = { apiRequests: 0, logoutRequests: 0, tokenRequests: { authentication: 0, public: 0 } };

  /** An unfinished job on disk for existing users, written as Privacy Desk writes it; optionally with an item started and done. */
  async function jobFor(uids: string[], { oneDone = false } = {}) {
    const journal = await createJob(dataDir, {
      action: 'anonymize',
      profileId: 'temporary',
      profileName: 'Sandbox',
      baseUrl: sandbox.current.url,
      logoutFirst: true,
      total: uids.length,
      source: 'pasted list',
    });
    await journal.appendItems(uids.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    if (oneDone) {
      await journal.recordStarted([0]);
      await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
    }
    await journal.close();
    return jobPaths(dataDir, journal.jobId);
  }

  /** Resumes the job; should it run after all, lets it finish so that everything it sent is counted. */
  async function resume(jobId: string): Promise<unknown> {
    try {
      // The phrase the operator would type, from the job as it reads (a damaged file throws here as in resume).
      const state = await readJobState(dataDir, jobId);
      const run = await desk.batch.resume(jobId, { concurrency: 1, confirmation: batchConfirmationPhrase(state.plan.action, state.unfinished) });
      await run.finished.catch(() => undefined);
      return undefined;
    } catch (error) {
      return error;
    }
  }

  const WRONG_ACTIONS: [string, unknown][] = [
    ["'anonymise'", 'anonymise'], ["'Delete'", 'Delete'], ["'ANONYMIZE'", 'ANONYMIZE'], ["''", ''], ["'logout'", 'logout'], ["'batch'", 'batch'],
    ['42', 42], ['missing', undefined], ['null', null], ["'constructor'", 'constructor'], ["'toString'", 'toString'],
  ];

  it.each(WRONG_ACTIONS)('a plan whose action is %s: resume refuses, naming plan.json, and nothing reaches the service', async (_name, action) => {
    const uids = await seededUids(2);
    const paths = await jobFor(uids);
    const plan = JSON.parse(readFileSync(paths.plan, 'utf8')) as Record<string, unknown>;
    writeFileSync(paths.plan, JSON.stringify({ ...plan, action }));
    await resetStats();

    const error = await resume(plan.jobId as string);

    expect(await stats()).toMatchObject(NOTHING_SENT);
    expect(error).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent' });
    const message = (error as Error).message;
    expect(message).toContain(paths.plan);
    expect(message).toContain('action');
    expect(message).toContain('nothing was sent');
    // The job is not offered for a resume either: it is listed as damaged, naming plan.json.
    const { jobs, damaged } = await desk.batch.listAll();
    expect(jobs.map((job) => job.batchId)).not.toContain(plan.jobId);
    expect(damaged).toMatchObject([{ batchId: plan.jobId, file: 'plan.json', path: paths.plan, text: { id: 'batch.damaged.file' } }]);
    expect(await desk.batch.mostRecentUnfinished()).toBeNull();
  });

  it('an item line of the wrong shape: resume refuses, naming items.jsonl and the line, and nothing is sent', async () => {
    const uids = await seededUids(3);
    const paths = await jobFor(uids);
    const lines = readFileSync(paths.items, 'utf8').split('\n');
    lines[1] = JSON.stringify({ line: 2, uid: [uids[1]] });
    writeFileSync(paths.items, lines.join('\n'));
    await resetStats();

    const error = await resume(paths.dir.split('/').pop()!);

    expect(await stats()).toMatchObject(NOTHING_SENT);
    expect(error).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent', message: expect.stringContaining(`Line 2 of ${paths.items}`) });
  });

  it('a journal line of the wrong shape: resume refuses, naming journal.jsonl and the line, and nothing is sent', async () => {
    const uids = await seededUids(2);
    const paths = await jobFor(uids, { oneDone: true });
    const lines = readFileSync(paths.journal, 'utf8').split('\n');
    expect(JSON.parse(lines[1]!)).toMatchObject({ item: 0, kind: 'outcome', outcome: 'done' });
    lines[1] = lines[1]!.replace('"done"', '"Done"');
    writeFileSync(paths.journal, lines.join('\n'));
    await resetStats();

    const error = await resume(paths.dir.split('/').pop()!);

    expect(await stats()).toMatchObject(NOTHING_SENT);
    expect(error).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent', message: expect.stringContaining(`Line 2 of ${paths.journal}`) });
  });

  it("a draft's item line of the wrong shape: start refuses, naming the draft, and no act is sent", async () => {
    const uids = await seededUids(3);
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'pasted list' });
    const [draftFile] = readdirSync(draftsDir(dataDir)).filter((name) => name === `${preview.draftId}.jsonl`);
    const path = join(draftsDir(dataDir), draftFile!);
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[1] = JSON.stringify({ line: 2, uid: 5 });
    writeFileSync(path, lines.join('\n'));
    await resetStats();

    let error: unknown;
    try {
      const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: true, concurrency: 1, confirmation: 'DELETE 3' });
      await run.finished.catch(() => undefined);
    } catch (caught) {
      error = caught;
    }

    // Start gets a token first (a job that cannot run is not left behind); no act leaves.
    expect(await stats()).toMatchObject({ apiRequests: 0, logoutRequests: 0 });
    expect(error).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent', message: expect.stringContaining(`Line 2 of ${path}`) });
  });
});
