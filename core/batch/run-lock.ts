import { check, lock } from 'proper-lockfile';
import type { BatchJobHolder } from '../../shared/batch';
import { PrivacyDeskError } from '../../shared/errors';
import { DATA_LOCK_TIMINGS } from '../data-lock';
import { jobPaths } from './job-files';
import { readRunner, removeRunner, runnerEnded, thisRunner, writeRunner, type RunnerRecord } from './job-runner';
import { beingRunText, holderOf } from './lock-holder';
import { lockIdOf, takeOverEndedHolder } from './run-lock-takeover';
import { msg } from '../../shared/messages';

/** A job's run lock, held for the whole run (refreshed by proper-lockfile every REFRESH_MS). */
export interface RunLock {
  /** Aborted when the lock was lost (taken over after a stall); its reason is the error to throw. */
  readonly signal: AbortSignal;
  /** The operator paused or resumed the run: recorded where every other process reads it (job-runner.ts). */
  setPaused(paused: boolean): void;
  /** The run is stopping (cancelled, or an error stops it): recorded the same way; a pause asked after it changes nothing. */
  setStopping(): void;
  release(): Promise<void>;
}

const lockOptions = (runLock: string) => ({ realpath: false, lockfilePath: runLock, stale: DATA_LOCK_TIMINGS.STALE_MS });

/**
 * Takes `<jobdir>/run.lock` at once or throws: one job is run by one process at a time, and a
 * second runner should be told who runs it rather than wait for a run that may last hours. A lock
 * whose holder's process has ended on this computer (killed, crashed: job-runner.ts) is taken over
 * at once (run-lock-takeover.ts), so that a job listed as not running can be resumed at once.
 */
export async function takeRunLock(dataDir: string, jobId: string, now: () => Date = () => new Date()): Promise<RunLock> {
  const paths = jobPaths(dataDir, jobId);
  const lost = new AbortController();
  const options = {
    ...lockOptions(paths.runLock),
    update: DATA_LOCK_TIMINGS.REFRESH_MS,
    retries: 0,
    // The default throws from a timer and kills the process; the journal refuses further writes instead.
    onCompromised: (error: Error) => lost.abort(runLockLost(jobId, paths.runLock, error)),
  };
  const take = () => lock(paths.dir, options);
  let release: () => Promise<void>;
  try {
    release = await take().catch(async (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const taken = await takeOverEndedHolder(dataDir, jobId, take);
      if (!taken) throw error;
      return taken;
    });
  } catch (error) {
    throw runLockNotTaken(dataDir, jobId, paths.runLock, error);
  }
  let runner: RunnerRecord;
  try {
    runner = thisRunner(now(), lockIdOf(paths.runLock));
    writeRunner(dataDir, jobId, runner);
  } catch (error) {
    await release().catch(() => undefined);
    throw runLockNotTaken(dataDir, jobId, paths.runLock, error);
  }
  let released = false;
  return {
    signal: lost.signal,
    setPaused(paused) {
      if (released || lost.signal.aborted || runner.stopping || runner.paused === paused) return;
      runner = { ...runner, paused, since: now().toISOString() };
      try {
        writeRunner(dataDir, jobId, runner);
      } catch {
        // Not recorded (a full disk): this run still pauses; other processes go on reading it as running.
      }
    },
    setStopping() {
      if (released || lost.signal.aborted || runner.stopping) return;
      runner = { ...runner, stopping: true, since: now().toISOString() };
      try {
        writeRunner(dataDir, jobId, runner);
      } catch {
        // Not recorded (a full disk): this run still stops; other processes read it as running until it lets go.
      }
    },
    release: async () => {
      if (released) return;
      released = true;
      if (lost.signal.aborted) return; // taken over: the lock and the runner record are another run's now
      // The record goes first: once the lock is free, another process may take it and write its own.
      removeRunner(dataDir, jobId);
      await release().catch(() => undefined);
    },
  };
}

/**
 * Who runs a job now, as every process reads it: nobody (no live lock); a process, running, paused
 * by its operator or stopping — and which one, once it has recorded itself; or a holder that has ended
 * without letting go (killed, crashed) — nobody runs the job, and its lock is taken over at once.
 */
export type JobRunner = { state: 'none' } | { state: 'running' | 'paused' | 'stopping'; holder?: BatchJobHolder } | { state: 'ended'; pid: number };

export async function jobRunner(dataDir: string, jobId: string): Promise<JobRunner> {
  const paths = jobPaths(dataDir, jobId);
  // A crashed holder's lock counts as free once stale.
  const held = await check(paths.dir, lockOptions(paths.runLock)).catch(() => false);
  if (!held) return { state: 'none' };
  const runner = readRunner(dataDir, jobId);
  // No record yet: the lock was just taken (the record follows at once).
  if (!runner) return { state: 'running' };
  if (runnerEnded(runner)) return { state: 'ended', pid: runner.pid };
  return { state: runner.stopping ? 'stopping' : runner.paused ? 'paused' : 'running', holder: holderOf(runner, paths.runLock) };
}

function runLockNotTaken(dataDir: string, jobId: string, runLock: string, error: unknown): PrivacyDeskError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOCKED') {
    // Who holds it, when it has said so; a holder that has not (it took the lock a moment ago) is not named.
    const runner = readRunner(dataDir, jobId);
    const text = runner && !runnerEnded(runner) ? beingRunText(jobId, holderOf(runner, runLock)) : msg('batch.runLockBusy', { job: jobId, seconds: DATA_LOCK_TIMINGS.STALE_MS / 1000 });
    return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text }, { cause: error });
  }
  return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.runLockFailed', { job: jobId, path: runLock }), ...(code ? { quote: { from: 'system' as const, text: code } } : {}) }, { cause: error });
}

function runLockLost(jobId: string, runLock: string, error: Error): PrivacyDeskError {
  return new PrivacyDeskError(
    {
      code: 'INTERNAL',
      outcome: 'not-sent',
      text: msg('batch.runLockLost', { job: jobId, path: runLock }),
      quote: { from: 'system', text: error.message },
    },
    { cause: error },
  );
}
