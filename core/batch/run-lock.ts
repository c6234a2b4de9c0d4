import { check, lock } from 'proper-lockfile';
import { PrivacyDeskError } from '../../shared/errors';
import { DATA_LOCK_TIMINGS } from '../data-lock';
import { jobPaths } from './job-files';
import { readRunner, removeRunner, runnerEnded, thisRunner, writeRunner } from './job-runner';
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
/** How often a lock whose holder has ended is tried again until it is stale. */
const ENDED_HOLDER_RETRY_MS = 250;

/**
 * Takes `<jobdir>/run.lock` at once or throws: one job is run by one process at a time, and a
 * second runner should be told rather than wait for a run that may last hours. Only when the
 * holder's process has ended (killed, crashed: job-runner.ts) is its lock waited for, until it is
 * stale (at most STALE_MS), so that a job listed as not running can be resumed at once.
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
  let release: () => Promise<void>;
  try {
    release = await lock(paths.dir, options).catch(async (error: unknown) => {
      const holder = readRunner(dataDir, jobId);
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !holder || !runnerEnded(holder)) throw error;
      const tries = Math.ceil(DATA_LOCK_TIMINGS.STALE_MS / ENDED_HOLDER_RETRY_MS) + 4;
      return lock(paths.dir, { ...options, retries: { retries: tries, factor: 1, minTimeout: ENDED_HOLDER_RETRY_MS, maxTimeout: ENDED_HOLDER_RETRY_MS } });
    });
  } catch (error) {
    throw runLockNotTaken(jobId, paths.runLock, error);
  }
  let runner = thisRunner(now());
  try {
    writeRunner(dataDir, jobId, runner);
  } catch (error) {
    await release().catch(() => undefined);
    throw runLockNotTaken(jobId, paths.runLock, error);
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
 * by its operator or stopping; or a holder that has ended without letting go (killed, crashed) — nobody runs the job.
 */
export type JobRunner = { state: 'none' } | { state: 'running' | 'paused' | 'stopping' } | { state: 'ended'; pid: number };

export async function jobRunner(dataDir: string, jobId: string): Promise<JobRunner> {
  const paths = jobPaths(dataDir, jobId);
  // A crashed holder's lock counts as free once stale.
  const held = await check(paths.dir, lockOptions(paths.runLock)).catch(() => false);
  if (!held) return { state: 'none' };
  const runner = readRunner(dataDir, jobId);
  // No record yet: the lock was just taken (the record follows at once).
  if (!runner) return { state: 'running' };
  if (runnerEnded(runner)) return { state: 'ended', pid: runner.pid };
  return { state: runner.stopping ? 'stopping' : runner.paused ? 'paused' : 'running' };
}

function runLockNotTaken(jobId: string, runLock: string, error: unknown): PrivacyDeskError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOCKED') {
    return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.runLockBusy', { job: jobId, seconds: DATA_LOCK_TIMINGS.STALE_MS / 1000 }) }, { cause: error });
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
