import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchJobSummary, BatchProgress } from '../../shared/batch';
import { runCli } from '../../cli/run-cli';
import type { JobFinished, JobProgress } from '../../shared/jobs';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { readJobState } from '../../core/batch/job-state';
import { batchHandlers } from '../../handlers/batch-handlers';
import { createJobRegistry } from '../../handlers/jobs';
import { useSandbox } from './helpers';

/**
 * One truth about a job on every screen: what batch.list and batch.get serve for a job this app runs is
 * its run's own latest report (state, counts, figures, the bridge job to pause it), with the revision its
 * progress events carry — never the journal's lagging counts beside a progress event's fresher ones.
 */
describe('a running job’s state, served with the job', () => {
  const sandbox = useSandbox({ users: 30 });
  let dataDir: string;
  let desk: Desk;
  // The service holds every anonymisation after the third until the test lets them through: the pause
  // is asked while the run is certainly not over, however slow the machine is.
  let sentErasures = 0;
  let letThrough: () => void = () => undefined;
  let held: Promise<void>;
  let onSend = () => undefined as void;
  const holdingFetch: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/anonymize') && ++sentErasures > 3) {
      onSend();
      await held;
    }
    return fetch(input, init);
  };

  beforeEach(() => {
    sentErasures = 0;
    held = new Promise<void>((resolve) => (letThrough = resolve));
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-job-state-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'dpo', fetch: holdingFetch });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `privacy-desk batch …` on this data folder, as another process runs it (a desk of its own, no run of its own). */
  async function cli(args: string[]): Promise<{ stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(['batch', ...args], {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      stdin: Readable.from([]),
      env: { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' },
    });
    expect(code).toBe(0);
    return { stdout, stderr };
  }
  const cliJobs = async () => (JSON.parse((await cli(['list', '--json'])).stdout) as { jobs: BatchJobSummary[] }).jobs;
  const cliTable = async () => (await cli(['list'])).stdout;

  it('paused, running and finished: the list says what the progress events say, and the journal agrees once paused', async () => {
    const uids = (await desk.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid && /^[\w.@-]+$/.test(user.uid) ? [user.uid] : [])).slice(0, 12);
    expect(uids).toHaveLength(12);
    const progress: BatchProgress[] = [];
    const finished: JobFinished[] = [];
    const waiters: { test: () => boolean; resolve: () => void }[] = [];
    const settle = () => waiters.splice(0).forEach((waiter) => (waiter.test() ? waiter.resolve() : waiters.push(waiter)));
    const until = (test: () => boolean) => new Promise<void>((resolve) => (test() ? resolve() : waiters.push({ test, resolve })));
    const jobs = createJobRegistry((name, payload) => {
      if (name === 'job.progress' && (payload as JobProgress).kind === 'batch.run') progress.push(payload as BatchProgress);
      if (name === 'job.finished') finished.push(payload as JobFinished);
      settle();
    });
    const bridge = batchHandlers({ desk, jobs });
    onSend = settle;

    const preview = await bridge['batch.preview']({ text: uids.join('\n'), kind: 'auto', sourceName: 'pasted list' });
    const { jobId, batchId } = await bridge['batch.start']({ draftId: preview.draftId, profileId: 'temporary', action: 'anonymize', logoutFirst: false, concurrency: 2, confirmation: 'ANONYMISE 12', useTrimmed: false });
    // Two senders: a fifth anonymisation is sent only once three have ended (the fourth and fifth are held).
    await until(() => sentErasures >= 5);
    await bridge['batch.setPaused']({ jobId, paused: true });
    letThrough();
    // Paused once the items in flight have ended: their outcomes are reported too.
    await until(() => progress.at(-1)?.state === 'paused' && progress.at(-1)?.inFlight === 0);
    const paused = progress.at(-1)!;
    expect(paused.counts.done).toBeGreaterThanOrEqual(3);
    expect(paused.counts.done).toBeLessThan(12);

    const [listed] = (await bridge['batch.list']({})).jobs;
    expect(listed).toMatchObject({ batchId, state: 'paused', counts: paused.counts, live: { state: 'paused', inFlight: 0, jobId } });
    expect(listed!.revision).toBeGreaterThanOrEqual(paused.revision!);
    expect((await bridge['batch.get']({ batchId })).job).toEqual(listed);
    // Another process reads the journal: it says the same (what was done is written once paused).
    const journal = await readJobState(dataDir, batchId);
    expect(journal.counts.done).toBe(paused.counts.done);
    // The CLI is a screen too: its batch list says paused, with the same counts, and so does its table.
    expect(await cliJobs()).toMatchObject([{ batchId, state: 'paused', counts: paused.counts }]);
    expect(await cliTable()).toMatch(new RegExp(`^${batchId} .* paused +${paused.counts.done} +0 +0 +${paused.counts.unfinished}\n`, 'm'));
    expect((await cli(['results', batchId])).stderr).toContain(`Batch ${batchId} is paused in another process: these results are as its journal records them now (${paused.counts.unfinished} item${paused.counts.unfinished === 1 ? '' : 's'} unfinished).`);

    await bridge['batch.setPaused']({ jobId, paused: false });
    await until(() => progress.at(-1)?.state === 'running' && (progress.at(-1)?.revision ?? 0) > paused.revision!);
    const running = (await bridge['batch.get']({ batchId })).job!;
    expect(running).toMatchObject({ state: 'running', live: { state: 'running' } });
    expect(await cliJobs()).toMatchObject([{ batchId, state: 'running' }]);
    expect(running.counts.done + running.counts.unfinished).toBe(12);
    expect(running.counts.done).toBeGreaterThanOrEqual(paused.counts.done);

    await until(() => finished.length === 1);
    const result = finished[0]!;
    expect(result).toMatchObject({ kind: 'batch.run', status: 'completed', result: { state: 'finished', counts: { done: 12, unfinished: 0 } } });
    const ended = (await bridge['batch.get']({ batchId })).job!;
    expect(ended).toMatchObject({ state: 'finished', counts: { done: 12, unfinished: 0 } });
    expect(ended.live).toBeUndefined();
    expect(ended.revision).toBeGreaterThan(progress.at(-1)!.revision!);
  });
});
