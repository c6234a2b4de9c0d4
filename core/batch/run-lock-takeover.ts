/**
 * The run lock of a holder whose process has ended on this computer (killed, crashed) is taken over at once — not
 * once it is stale (DATA_LOCK_TIMINGS.STALE_MS): the job is listed as unfinished as soon as its holder is gone, so
 * resuming it must work then too.
 *
 * Two processes may find the same dead holder at the same moment, and only one may take its lock. Removing the dead
 * lock and taking it again with proper-lockfile's mkdir is not enough alone: the slower one could remove the lock the
 * faster one has just taken, and both would run the job. So the dead holder's runner.json is claimed first, by
 * renaming it to a name of this process's own — a rename of one file succeeds for one process only — and the claimed
 * record must still be the dead holder's (a record written by a new holder in between is put back). Only the
 * claimant removes run.lock, and only while it is still the lock the dead holder took (`lockId`: the lock a plain take
 * made after the dead one went stale, whose taker has not written its record yet, is not removed). It then takes it
 * with the library's mkdir like any other taker; a process whose mkdir gets there first simply holds it, and the
 * claimant is refused as busy. Comparing the record's contents alone could not decide: two processes may both read the
 * dead record before either acts.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { jobPaths } from './job-files';
import { readRunner, readRunnerFile, runnerEnded, sameRunner } from './job-runner';

type Release = () => Promise<void>;

/**
 * Takes over the lock of a holder that has ended on this computer, with `take` (one try of proper-lockfile's lock).
 * Null when there is none to take over: the holder runs, is elsewhere, has not said which process it is, or another
 * process is taking it over. Rejects as `take` does when a process took the lock between its removal and `take`.
 */
export async function takeOverEndedHolder(dataDir: string, jobId: string, take: () => Promise<Release>): Promise<Release | null> {
  const paths = jobPaths(dataDir, jobId);
  const dead = readRunner(dataDir, jobId);
  if (!dead || !runnerEnded(dead)) return null;
  const claim = `${paths.runner}.${process.pid}-${randomBytes(4).toString('hex')}.claimed`;
  try {
    renameSync(paths.runner, claim);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // claimed by another process first
    throw error;
  }
  let deadLockGone = false;
  try {
    const claimed = readRunnerFile(claim);
    if (!claimed || !sameRunner(claimed, dead)) return null; // a live holder's record, written since: put back
    const lockNow = lockIdOf(paths.runLock);
    // Not the lock it took: it went stale and another process took a new one, whose record follows (replacing the
    // one put back). Or the system keeps no birth time (lockIdOf): the lock then waits until it is stale.
    if (lockNow !== null && claimed.lockId !== undefined && claimed.lockId !== lockNow) return null;
    if (lockNow !== null) removeLock(paths.runLock);
    deadLockGone = true;
  } finally {
    // While the dead holder's lock stays, so does its record: the job still reads as unfinished, not as run by someone unnamed.
    if (!deadLockGone) putBack(claim, paths.runner);
    rmSync(claim, { force: true });
  }
  return take();
}

function removeLock(runLock: string): void {
  try {
    rmdirSync(runLock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Which run.lock this is: its inode and birth time (an inode number alone is given again to the next folder made).
 * Where the system keeps no birth time Node may give the change time, which each refresh moves: the ids then differ
 * and the lock is left to go stale — slower, never wrong. Null when there is no lock.
 */
export function lockIdOf(runLock: string): string | null {
  try {
    const stats = statSync(runLock);
    return `${stats.ino}-${stats.birthtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The record goes back where it was, unless its holder has written a newer one meanwhile (a link never replaces a file). */
function putBack(claim: string, runner: string): void {
  try {
    linkSync(claim, runner);
  } catch {
    // EEXIST: a newer record is there. Anything else: the record is lost, and the job reads as run by a process not named.
  }
}
