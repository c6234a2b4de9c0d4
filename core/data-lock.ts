import { join, resolve } from 'node:path';
import { lock, type LockOptions } from 'proper-lockfile';
import { PrivacyDeskError } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { ensureDataDir } from './data-dir';

/** A named lock on one part of the data folder; `what` is how messages name what it guards (a phrase the window words). */
export interface DataLockName {
  name: string;
  what: MessageText | string;
}

export const PROFILES_LOCK: DataLockName = { name: 'profiles', what: msg('lock.what.profiles') };
export const AUDIT_LOCK: DataLockName = { name: 'audit', what: msg('lock.what.audit') };

/**
 * Holds stay short (one read-modify-write, one append, one keychain call), so:
 * - STALE_MS: a crashed holder's lock is taken over 10 s after its last refresh (proper-lockfile's default);
 * - REFRESH_MS: a live holder refreshes every 2 s, so only an event loop stalled for ~8 s loses its lock;
 * - WAIT_MS: a waiter keeps trying for 15 s, longer than STALE_MS, so it outlasts a crashed holder
 *   instead of failing. It tries again after 10 ms, backing off to at most 100 ms (each try is one
 *   mkdir, and holds last tens of ms: a longer pause would leave the lock idle), with jitter so
 *   several waiting processes do not knock in step.
 */
export const DATA_LOCK_TIMINGS = { STALE_MS: 10_000, REFRESH_MS: 2_000, WAIT_MS: 15_000 } as const;
const BACKOFF = { factor: 1.5, minTimeout: 10, maxTimeout: 100, randomize: true } as const;

export interface DataLockHold {
  /** Aborted when the lock is lost (compromised); its reason is the PrivacyDeskError to throw. */
  readonly signal: AbortSignal;
  /** Throws when the lock was lost: call it right before the step that makes a write visible. */
  assertHeld(): void;
}

export interface DataLockOptions {
  /** How long to wait for another process's hold; 0 tries once. Defaults to DATA_LOCK_TIMINGS.WAIT_MS. */
  waitMs?: number;
}

// Holders in this process queue here first: proper-lockfile's lock is per process, and polling
// our own lock would only add latency.
const localQueues = new Map<string, Promise<unknown>>();

/** The folder whose existence is the lock: `<dataDir>/<name>.lock`, there only while someone holds it. */
export function lockPathFor(dataDir: string, lockName: DataLockName): string {
  return join(dataDir, `${lockName.name}.lock`);
}

/**
 * Runs `task` while holding `lockName` in `dataDir`, across processes (the app and CLI
 * commands may share one data folder). Not re-entrant: `task` must not take the same lock.
 * Throws a PrivacyDeskError when the lock cannot be had in time or is lost during `task`.
 */
export async function withDataLock<T>(dataDir: string, lockName: DataLockName, task: (hold: DataLockHold) => T | Promise<T>, options: DataLockOptions = {}): Promise<T> {
  if (!/^[a-z0-9][a-z0-9._-]*$/i.test(lockName.name)) throw new Error(`Invalid data lock name "${lockName.name}"`);
  const lockPath = resolve(lockPathFor(dataDir, lockName));
  const previous = localQueues.get(lockPath) ?? Promise.resolve();
  const run = previous.then(() => holdAcrossProcesses(dataDir, lockName, lockPath, task, options.waitMs ?? DATA_LOCK_TIMINGS.WAIT_MS));
  const settled = run.catch(() => undefined);
  localQueues.set(lockPath, settled);
  void settled.then(() => {
    if (localQueues.get(lockPath) === settled) localQueues.delete(lockPath);
  });
  return run;
}

async function holdAcrossProcesses<T>(dataDir: string, lockName: DataLockName, lockPath: string, task: (hold: DataLockHold) => T | Promise<T>, waitMs: number): Promise<T> {
  const lost = new AbortController();
  const take = (retries: LockOptions['retries']) =>
    // The guarded files may not exist yet, so lock a fixed path without resolving it (realpath: false).
    lock(join(dataDir, lockName.name), {
      realpath: false,
      lockfilePath: lockPath,
      stale: DATA_LOCK_TIMINGS.STALE_MS,
      update: DATA_LOCK_TIMINGS.REFRESH_MS,
      retries,
      // The default throws from a timer and kills the process; instead the holder learns it on its next check.
      onCompromised: (error) => lost.abort(lockLost(dataDir, lockName, lockPath, error)),
    });
  let release: () => Promise<void>;
  try {
    ensureDataDir(dataDir);
    // One try first: proper-lockfile retries every error, and a folder we cannot write to should say so at once.
    release = await take(0).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ELOCKED' || waitMs <= 0) throw error;
      return take({ ...BACKOFF, retries: Math.ceil(waitMs / BACKOFF.minTimeout), maxRetryTime: waitMs });
    });
  } catch (error) {
    throw lockNotTaken(dataDir, lockName, lockPath, waitMs, error);
  }
  const hold: DataLockHold = {
    signal: lost.signal,
    assertHeld: () => lost.signal.throwIfAborted(),
  };
  try {
    const result = await task(hold);
    hold.assertHeld(); // a hold lost during the task must not pass for a clean write
    return result;
  } finally {
    // After a loss proper-lockfile already let go; a failed removal goes stale and is taken over.
    if (!lost.signal.aborted) await release().catch(() => undefined);
  }
}

function lockNotTaken(dataDir: string, lockName: DataLockName, lockPath: string, waitMs: number, error: unknown): PrivacyDeskError {
  const code = (error as NodeJS.ErrnoException).code;
  // Waiting ends in ELOCKED, or in retry's own timeout error, which carries no code.
  const busy = code === 'ELOCKED' || code === undefined;
  const { what } = lockName;
  const text = !busy
    ? msg('lock.failed', { what, dataDir })
    : waitMs > 0
      ? msg('lock.busyWaited', { what, dataDir, seconds: Math.round(waitMs / 1000), lockPath })
      : msg('lock.busy', { what, dataDir, lockPath });
  return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text, ...(busy ? {} : { quote: { from: 'system', text: String(code) } }) }, { cause: error });
}

function lockLost(dataDir: string, lockName: DataLockName, lockPath: string, error: Error): PrivacyDeskError {
  return new PrivacyDeskError(
    {
      code: 'INTERNAL',
      outcome: 'unknown',
      text: msg('lock.lost', { what: lockName.what, dataDir, lockPath }),
      quote: { from: 'system', text: error.message },
    },
    { cause: error },
  );
}
