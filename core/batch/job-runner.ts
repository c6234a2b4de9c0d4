/**
 * `runner.json`, beside a job's run lock: which process runs the job (its pid, on which computer) and whether
 * its operator paused it or it is stopping. Only the lock's holder writes it — right after taking the lock, at every
 * pause and resume, and when it starts stopping — and it is removed before the lock is let go. So every process reads the state the run itself has:
 * `batch list` in a terminal says "paused" while the console has the job paused.
 *
 * A holder that was killed leaves both behind, and its lock looks held until it goes stale (DATA_LOCK_TIMINGS.
 * STALE_MS after its last refresh). Its pid tells sooner: a process that no longer runs on this computer runs
 * no job. (Between a new holder taking over such a lock and writing its own runner.json — a few milliseconds —
 * the old record is still there; nothing is sent in that time.)
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { jobPaths, writeFileAtomic } from './job-files';

export interface RunnerRecord {
  pid: number;
  /** The computer's name: a pid means something only there. */
  host: string;
  startedAt: string;
  paused: boolean;
  /** Its operator cancelled it (or it met an error that stops it): the items in flight finish, nothing more is sent. Absent in records written before it was kept. */
  stopping?: boolean;
  /** When it was last paused, resumed or stopped (or started). */
  since: string;
}

const runnerSchema = z.looseObject({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.iso.datetime({ offset: true }),
  paused: z.boolean(),
  stopping: z.boolean().optional(),
  since: z.iso.datetime({ offset: true }),
});

/** This process, starting to run the job now. */
export function thisRunner(now: Date): RunnerRecord {
  const at = now.toISOString();
  return { pid: process.pid, host: hostname(), startedAt: at, paused: false, since: at };
}

/** Atomically, owner-only: a reader sees the old record or the new one. */
export function writeRunner(dataDir: string, jobId: string, record: RunnerRecord): void {
  const paths = jobPaths(dataDir, jobId);
  writeFileAtomic(paths.runner, paths.dir, `${JSON.stringify(record)}\n`);
}

export function removeRunner(dataDir: string, jobId: string): void {
  rmSync(jobPaths(dataDir, jobId).runner, { force: true });
}

/** The record, or null when there is none or it is not one (then nothing is concluded from it). */
export function readRunner(dataDir: string, jobId: string): RunnerRecord | null {
  const path = jobPaths(dataDir, jobId).runner;
  if (!existsSync(path)) return null;
  try {
    const parsed = runnerSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** True only when the runner was on this computer and its process has ended: elsewhere, nothing can be told. */
export function runnerEnded(record: RunnerRecord): boolean {
  if (record.host !== hostname()) return false;
  try {
    process.kill(record.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process exists (another user's); only ESRCH says it is gone.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
