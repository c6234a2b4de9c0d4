/**
 * `runner.json`, beside a job's run lock: which process runs the job (its pid, on which computer) and whether
 * its operator paused it or it is stopping. Only the lock's holder writes it — right after taking the lock, at every
 * pause and resume, and when it starts stopping — and it is removed before the lock is let go. So every process reads the state the run itself has:
 * `batch list` in a terminal says "paused" while the console has the job paused.
 *
 * A holder that was killed leaves both behind, and its lock looks held until it goes stale (DATA_LOCK_TIMINGS.
 * STALE_MS after its last refresh). Its pid tells sooner: a process that no longer runs on this computer runs
 * no job, and its lock is taken over at once (run-lock-takeover.ts, which removes the dead record first). Between
 * a holder taking the lock and writing its runner.json — a few milliseconds — there is no record: the job reads
 * as running, by a process not named yet.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';
import { jobPaths, writeFileAtomic } from './job-files';
import { processEnded, processStartOf } from './process-ended';

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
  /** Its process's start as the system counts it (process-ended.ts): a later process given the same pid is not it. Absent without /proc, and in older records. */
  processStart?: string;
  /** Which run.lock it took (run-lock-takeover.ts lockIdOf): a lock made later by another process is not its. Absent in older records. */
  lockId?: string;
}

const runnerSchema = z.looseObject({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.iso.datetime({ offset: true }),
  paused: z.boolean(),
  stopping: z.boolean().optional(),
  since: z.iso.datetime({ offset: true }),
  processStart: z.string().optional(),
  lockId: z.string().optional(),
});

/** This process, starting to run the job now, with the lock it has just taken. */
export function thisRunner(now: Date, lockId: string | null): RunnerRecord {
  const at = now.toISOString();
  const processStart = processStartOf(process.pid);
  return { pid: process.pid, host: hostname(), startedAt: at, paused: false, since: at, ...(processStart !== undefined ? { processStart } : {}), ...(lockId !== null ? { lockId } : {}) };
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
  return readRunnerFile(jobPaths(dataDir, jobId).runner);
}

/** The same, from a given file (a record claimed for a takeover: run-lock-takeover.ts). */
export function readRunnerFile(path: string): RunnerRecord | null {
  if (!existsSync(path)) return null;
  try {
    const parsed = runnerSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** True only when the runner was on this computer and its process has ended (killed, even if not yet reaped): elsewhere, nothing can be told. */
export function runnerEnded(record: RunnerRecord): boolean {
  return record.host === hostname() && processEnded(record.pid, record.processStart);
}

/** The same runner: the same process on the same computer, holding since the same moment. */
export function sameRunner(a: RunnerRecord, b: RunnerRecord): boolean {
  return a.pid === b.pid && a.host === b.host && a.startedAt === b.startedAt;
}
