import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PrivacyDeskError } from '../../shared/errors';
import { wordInEnglish } from '../../shared/messages';
import { jobPaths } from './job-files';
import { listJobs } from './job-list';
import { readRunner, runnerEnded, writeRunner, type RunnerRecord } from './job-runner';
import { createJob, resumeJob, type Journal } from './journal';
import { processStartOf } from './process-ended';
import { lockIdOf } from './run-lock-takeover';

const journalModule = resolve(import.meta.dirname, 'journal.ts');
const STARTED_AT = '2026-11-24T08:15:30.000Z';

/** A pid that ran and has ended (spawnSync waits for the process and reaps it). */
function endedPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '']);
  if (!pid) throw new Error('no process was started');
  return pid;
}

/** A job left as a killed holder leaves it: its run.lock (fresh for the next hour: only its pid can free it, never its going stale) and its runner.json. */
async function jobLeftBy(dir: string, holder: Partial<RunnerRecord>): Promise<{ jobId: string; paths: ReturnType<typeof jobPaths> }> {
  const journal = await createJob(dir, { action: 'delete', profileId: 'p1', profileName: 'Staging', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total: 2, source: 'uids.txt' });
  await journal.appendItems([{ line: 1, uid: 'a' }, { line: 2, uid: 'b' }]);
  await journal.finishItems();
  await journal.close();
  const paths = jobPaths(dir, journal.jobId);
  mkdirSync(paths.runLock);
  const anHourAhead = new Date(Date.now() + 3_600_000);
  utimesSync(paths.runLock, anHourAhead, anHourAhead);
  writeRunner(dir, journal.jobId, { pid: endedPid(), host: hostname(), startedAt: STARTED_AT, paused: false, since: STARTED_AT, lockId: lockIdOf(paths.runLock)!, ...holder });
  return { jobId: journal.jobId, paths };
}

async function refusal(promise: Promise<unknown>): Promise<PrivacyDeskError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(PrivacyDeskError);
  return error as PrivacyDeskError;
}

describe('the run lock of a holder whose process has ended', () => {
  let dir: string;
  const open: Journal[] = [];
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'batch-takeover-'));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((journal) => journal.close().catch(() => undefined)));
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('on this computer, a dead pid: listed as unfinished and taken over at once, the new record naming this process', async () => {
    const { jobId } = await jobLeftBy(dir, {});
    expect((await listJobs(dir)).jobs[0]).toMatchObject({ jobId, state: 'unfinished' });
    open.push(await resumeJob(dir, jobId));
    expect(readRunner(dir, jobId)).toMatchObject({ pid: process.pid, host: hostname() });
    expect((await listJobs(dir)).jobs[0]).toMatchObject({ jobId, state: 'running', holder: { pid: process.pid, onThisComputer: true } });
  });

  it('a pid that answers but is another process now (its start is not the recorded one) is no holder', async () => {
    expect(processStartOf(process.pid)).toBeDefined();
    const { jobId } = await jobLeftBy(dir, { pid: process.pid, processStart: 'not-this-process' });
    open.push(await resumeJob(dir, jobId));
  });

  it.runIf(process.platform === 'linux')('a killed process its parent has not reaped yet (a zombie) is no holder', async () => {
    // The parent kills its child, waits until it is a zombie, says its pid, then blocks: nothing ever reaps it.
    const parent = spawn(process.execPath, ['-e', `
      const { spawn } = require('node:child_process');
      const { readFileSync, writeSync } = require('node:fs');
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)']);
      child.kill('SIGKILL');
      const state = () => { try { return readFileSync('/proc/' + child.pid + '/stat', 'utf8').split(') ')[1][0]; } catch { return '?'; } };
      while (state() !== 'Z');
      writeSync(1, child.pid + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    `]);
    children.push(parent);
    const [chunk] = (await once(parent.stdout, 'data')) as [Buffer];
    const zombie = Number(chunk.toString().trim());
    expect(runnerEnded({ pid: zombie, host: hostname(), startedAt: STARTED_AT, paused: false, since: STARTED_AT })).toBe(true);
    const { jobId } = await jobLeftBy(dir, { pid: zombie });
    open.push(await resumeJob(dir, jobId));
  });

  it('a live holder on this computer is refused by name: its pid, this computer, since when, where the lock is', async () => {
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e9)']);
    children.push(live);
    const { jobId, paths } = await jobLeftBy(dir, { pid: live.pid! });
    const refused = await refusal(resumeJob(dir, jobId));
    expect(refused).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent', text: { id: 'batch.runLockHeld' } });
    const english = wordInEnglish(refused.text!);
    expect(english).toContain(`is being run by process ${live.pid} on this computer (${hostname()}) since `);
    expect(english).toContain(`holding the lock ${paths.runLock}, so this one sent nothing`);
    expect(english).toMatch(/since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d,/);
    expect((await listJobs(dir)).jobs[0]).toMatchObject({ jobId, state: 'running', holder: { pid: live.pid, host: hostname(), onThisComputer: true, since: STARTED_AT, lockPath: paths.runLock } });
    expect(readRunner(dir, jobId)?.pid).toBe(live.pid);
  });

  it('a holder on another computer is never taken over (its pid means nothing here): refused, naming that computer and when its lock expires', async () => {
    const { jobId, paths } = await jobLeftBy(dir, { host: 'desk-elsewhere' });
    const refused = await refusal(resumeJob(dir, jobId));
    expect(refused.text?.id).toBe('batch.runLockHeldElsewhere');
    const english = wordInEnglish(refused.text!);
    expect(english).toContain(' on another computer (desk-elsewhere) since ');
    expect(english).toContain(`holding the lock ${paths.runLock}`);
    expect(english).toContain('its lock expires 10 s after its last refresh');
    expect((await listJobs(dir)).jobs[0]).toMatchObject({ state: 'running', holder: { host: 'desk-elsewhere', onThisComputer: false } });
    expect(existsSync(paths.runLock)).toBe(true);
  });

  it('a dead record beside a lock that is not the one it took (taken since by another process) removes nothing', async () => {
    const { jobId, paths } = await jobLeftBy(dir, { lockId: 'another-lock' });
    const lockBefore = lockIdOf(paths.runLock);
    const refused = await refusal(resumeJob(dir, jobId));
    expect(refused.text?.id).toBe('batch.runLockBusy');
    expect(lockIdOf(paths.runLock)).toBe(lockBefore);
    expect(readRunner(dir, jobId)?.lockId).toBe('another-lock');
  });

  it('two takers at once in one process: one takes it, the other is refused', async () => {
    const { jobId } = await jobLeftBy(dir, {});
    const results = await Promise.allSettled([resumeJob(dir, jobId), resumeJob(dir, jobId)]);
    const taken = results.filter((result) => result.status === 'fulfilled');
    open.push(...taken.map((result) => result.value));
    expect(taken).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')?.reason).toBeInstanceOf(PrivacyDeskError);
  });

  it('four processes taking over the same dead lock at once: exactly one wins', async () => {
    const { jobId } = await jobLeftBy(dir, {});
    // Each child says "ready", waits for "go" (so that all try together), then says "took" or "busy", and holds what
    // it took until its stdin ends.
    const TAKER = `
      import { resumeJob } from ${JSON.stringify(journalModule)};
      process.stdin.once('data', async () => {
        try {
          const journal = await resumeJob(process.argv[1], process.argv[2]);
          console.log('took');
          process.stdin.once('end', () => journal.close());
        } catch (error) {
          console.log('busy ' + error.text?.id);
        }
      });
      console.log('ready');
    `;
    const takers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', TAKER, dir, jobId]));
    children.push(...takers);
    const lines = takers.map((taker) => {
      const said: string[] = [];
      taker.stdout.on('data', (chunk: Buffer) => said.push(...chunk.toString().trim().split('\n')));
      return async (index: number) => {
        while (said.length <= index) await once(taker.stdout, 'data');
        return said[index]!;
      };
    });
    expect(await Promise.all(lines.map((line) => line(0)))).toEqual(['ready', 'ready', 'ready', 'ready']);
    for (const taker of takers) taker.stdin.write('go\n');
    const answers = lines.map((line) => line(1));
    const said = await Promise.all(answers);
    expect(said.filter((answer) => answer === 'took')).toHaveLength(1);
    for (const answer of said.filter((one) => one !== 'took')) expect(answer).toMatch(/^busy batch\.run(LockHeld|LockBusy)$/);
    for (const taker of takers) taker.stdin.end();
    await Promise.all(takers.map((taker) => (taker.exitCode === null ? once(taker, 'exit') : undefined)));
  }, 30_000);
});
