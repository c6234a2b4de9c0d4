import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../core/audit-log';
import { createPauseSwitch } from '../../core/batch/pause-switch';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { openLocalRequestStore } from '../../core/requests/local-request-store';
import { openPgBatchJobs } from '../../core/team/pg-batch-jobs';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import type { FetchLike } from '../../core/types';
import type { BatchProgress } from '../../shared/batch';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { useSandbox } from './helpers';

/**
 * Two desktops whose batch jobs are in one team database (each with its own data folder for the rest): a job one
 * runs is listed by the other with its counts and who runs it, refused there while it runs, and resumed there once
 * the first let go — every uid erased once. desk.batch does not know which store it uses.
 */
describe.skipIf(pgSkipReason() !== null)('batch jobs of two desktops in one team database', () => {
  const sandbox = useSandbox({ users: 40 });
  let cluster: PgCluster;
  let databases = 0;
  const cleanup: Array<() => Promise<void> | void> = [];
  let one: Desk;
  let two: Desk;

  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());

  /** What happens as desktop one's 10th erasure goes out (its operator presses Pause, the database server stops…). */
  let onTenthDelete: (() => Promise<void> | void) | null = null;
  let deletesSent = 0;
  const watchingFetch: FetchLike = async (input, init) => {
    if (init?.method === 'DELETE' && ++deletesSent === 10) await onTenthDelete?.();
    return fetch(input, init);
  };

  async function desktop(url: string, operator: string, watched = false): Promise<Desk> {
    const dataDir = mkdtempSync(join(tmpdir(), 'team-batch-desk-'));
    const db: TeamDatabase = await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password });
    cleanup.push(() => db.close(), () => rmSync(dataDir, { recursive: true, force: true }));
    const desk = createDesk({
      dataDir,
      credentialStore: createSessionCredentialStore(),
      via: 'app',
      appVersion: 'test',
      operator,
      ...(watched ? { fetch: watchingFetch } : {}),
      stores: {
        audit: openAuditLog(dataDir),
        requests: (context) => openLocalRequestStore({ dataDir, ...context }),
        batchJobs: openPgBatchJobs(db, { operator }),
        team: { where: db.where, reached: () => ({ role: db.role, desktop: db.desktop }), close: () => db.close() },
      },
    });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
    return desk;
  }

  beforeEach(async () => {
    const url = await cluster.createDatabase(`desks_${++databases}`);
    deletesSent = 0;
    onTenthDelete = null;
    [one, two] = await Promise.all([desktop(url, 'agent-1', true), desktop(url, 'agent-2')]);
  });
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  const seededUids = async (count: number) => (await one.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid ? [user.uid] : [])).slice(0, count);

  it('one desktop runs a job; the other sees its progress and who runs it, is refused, and resumes it once it was cancelled', async () => {
    const uids = await seededUids(30);
    const preview = await one.batch.preview({ source: uids.join('\n'), sourceName: 'leavers.txt' });
    const pause = createPauseSwitch();
    const cancel = new AbortController();
    let pausedWithNothingInFlight!: () => void;
    const paused = new Promise<void>((resolve) => (pausedWithNothingInFlight = resolve));
    onTenthDelete = () => pause.pause();
    const onProgress = (progress: BatchProgress) => {
      if (progress.state === 'paused' && progress.inFlight === 0) pausedWithNothingInFlight();
    };
    const run = await one.batch.start(
      { draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 1, confirmation: 'DELETE 30' },
      { pause, signal: cancel.signal, onProgress },
    );
    await paused;

    // The other desktop reads the job from the database: paused, by whom, with the counts committed at the pause
    // (the pause and its flush are committed by the run as it pauses: asked again until they are there).
    const listedThere = async () => (await two.batch.list()).find((job) => job.batchId === run.batchId);
    await expect.poll(async () => (await listedThere())?.counts.done ?? 0, { timeout: 20_000 }).toBeGreaterThanOrEqual(10);
    await expect.poll(listedThere, { timeout: 20_000 }).toMatchObject({ state: 'paused', holder: { pid: process.pid } });
    const listed = (await listedThere())!;
    expect(listed.counts.done + listed.counts.unfinished).toBe(30);
    const unfinished = listed.counts.unfinished;
    await expect(two.batch.resume(run.batchId, { concurrency: 2, confirmation: `DELETE ${unfinished}` })).rejects.toThrow(`is being run by process ${process.pid}`);

    // Cancelled on the first desktop: it lets go, and the second resumes what is left.
    cancel.abort();
    pause.resume();
    expect(await run.finished).toMatchObject({ state: 'cancelled' });
    const left = (await two.batch.list()).find((job) => job.batchId === run.batchId)!;
    expect(left).toMatchObject({ state: 'unfinished' });
    expect(left.holder).toBeUndefined();
    const resumed = await two.batch.resume(run.batchId, { concurrency: 2, confirmation: `DELETE ${left.counts.unfinished}` });
    expect(await resumed.finished).toMatchObject({ state: 'finished', counts: { unfinished: 0, failed: 0 } });

    expect((await one.batch.list()).find((job) => job.batchId === run.batchId)).toMatchObject({ state: 'finished', counts: { done: 30, unfinished: 0 } });
    const outcomes: string[] = [];
    for await (const row of one.batch.results(run.batchId)) outcomes.push(row.outcome);
    expect(outcomes).toEqual(uids.map(() => 'done'));
    // The results file of a team job is written on this computer, beside the data folder's own jobs.
    const file = await one.batch.writeResultsFile!(run.batchId, 'csv');
    expect(file).toBe(join(one.dataDir, 'batches', 'team-results', `${run.batchId}.results.csv`));
    expect(readFileSync(file, 'utf8').trim().split('\r\n')).toHaveLength(31);
    // Every uid was erased once: nothing sent twice, nothing left.
    for (const uid of uids) expect(sandbox.current.requestLog(uid).filter((request) => request.act === 'delete' && request.status < 300), uid).toHaveLength(1);
  }, 60_000);

  it('the database lost during a run: the run stops, and once it is back another desktop resumes at once, re-checking what was in flight', async () => {
    const uids = await seededUids(30);
    const preview = await one.batch.preview({ source: uids.join('\n'), sourceName: 'leavers.txt' });
    // As the 10th erasure goes out, the database server stops (every desktop loses it).
    onTenthDelete = () => cluster.stopServer();
    const run = await one.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 1, confirmation: 'DELETE 30' });
    try {
      await expect(run.finished).rejects.toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
    } finally {
      await cluster.startServer();
    }
    // The desktop that lost it let go as soon as it could: the job is unfinished, not run by anyone.
    const left = (await two.batch.list()).find((job) => job.batchId === run.batchId)!;
    expect(left).toMatchObject({ state: 'unfinished' });
    expect(left.counts.unfinished).toBeGreaterThanOrEqual(21);
    const resumed = await two.batch.resume(run.batchId, { concurrency: 2, confirmation: `DELETE ${left.counts.unfinished}` });
    const result = await resumed.finished;
    expect(result).toMatchObject({ state: 'finished', counts: { unfinished: 0, failed: 0, notFound: 0 } });
    expect(result.counts.done + result.counts.doneBeforeInterruption).toBe(30);
    // Whatever was in flight when the database went was re-checked, not erased twice.
    for (const uid of uids) expect(sandbox.current.requestLog(uid).filter((request) => request.act === 'delete' && request.status < 300), uid).toHaveLength(1);
  }, 60_000);
});
