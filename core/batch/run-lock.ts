import { check, lock } from 'proper-lockfile';
import { PrivacyDeskError } from '../../shared/errors';
import { DATA_LOCK_TIMINGS } from '../data-lock';
import { jobPaths } from './job-files';
import { msg } from '../../shared/messages';

/** A job's run lock, held for the whole run (refreshed by proper-lockfile every REFRESH_MS). */
export interface RunLock {
  /** Aborted when the lock was lost (taken over after a stall); its reason is the error to throw. */
  readonly signal: AbortSignal;
  release(): Promise<void>;
}

const lockOptions = (runLock: string) => ({ realpath: false, lockfilePath: runLock, stale: DATA_LOCK_TIMINGS.STALE_MS });

/**
 * Takes `<jobdir>/run.lock` at once or throws: one job is run by one process at a time, and a
 * second runner should be told rather than wait for a run that may last hours.
 */
export async function takeRunLock(dataDir: string, jobId: string): Promise<RunLock> {
  const paths = jobPaths(dataDir, jobId);
  const lost = new AbortController();
  let release: () => Promise<void>;
  try {
    release = await lock(paths.dir, {
      ...lockOptions(paths.runLock),
      update: DATA_LOCK_TIMINGS.REFRESH_MS,
      retries: 0,
      // The default throws from a timer and kills the process; the journal refuses further writes instead.
      onCompromised: (error) => lost.abort(runLockLost(jobId, paths.runLock, error)),
    });
  } catch (error) {
    throw runLockNotTaken(jobId, paths.runLock, error);
  }
  return {
    signal: lost.signal,
    release: async () => {
      if (!lost.signal.aborted) await release().catch(() => undefined);
    },
  };
}

/** Whether some live process holds the job's run lock (a crashed holder's lock counts as free once stale). */
export async function isJobRunning(dataDir: string, jobId: string): Promise<boolean> {
  const paths = jobPaths(dataDir, jobId);
  return check(paths.dir, lockOptions(paths.runLock)).catch(() => false);
}

function runLockNotTaken(jobId: string, runLock: string, error: unknown): PrivacyDeskError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOCKED') {
    return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.runLockBusy', { job: jobId, seconds: DATA_LOCK_TIMINGS.STALE_MS / 1000 }) }, { cause: error });
  }
  return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.runLockFailed', { job: jobId, path: runLock }), quote: { from: 'system', text: code ?? 'unknown error' } }, { cause: error });
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
