/**
 * Who runs a team job: its lease row (batch_leases, migrations/batch.ts), the team database's run lock.
 *
 * - Taken by ONE statement (INSERT … ON CONFLICT DO UPDATE … WHERE): it succeeds only when the job has no lease, its
 *   lease has expired (no heartbeat for `leaseMs`), its holder's process is seen to have ended on this very computer
 *   (a pid means something only there: process-ended.ts), or this process let it go and could not remove it (the
 *   database was out of reach then: its removal is asked again while the lease lasts). Two desktops taking it at once: the row lock
 *   makes one win; the other is told who runs the job (BatchJobHolder), in the words of the data folder's run lock.
 * - Kept alive by a heartbeat every `heartbeatMs`, and renewed by every journal write (`fence`) in the same
 *   transaction as the write: a write commits only while the lease is still this run's. A holder that vanished
 *   stops renewing; after `leaseMs` another desktop may take the job over and resume it.
 * - Lost (taken over after it expired): `signal` aborts, as with a lost run lock, and the journal refuses to write:
 *   the run stops sending. Its items in flight stay 'started' for the next run to re-check.
 * Times are the database's clock (one clock for every desktop); tests give a virtual one (`now`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type pg from 'pg';
import type { BatchJobHolder } from '../../shared/batch';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { beingRunText, holderOf } from '../batch/lock-holder';
import { processEnded, processStartOf } from '../batch/process-ended';
import type { JobRunner } from '../batch/run-lock';
import { teamStoreError, type TeamDatabase } from './team-database';

export interface LeaseTimings {
  /** A lease without a heartbeat for this long has expired (default 30 s). */
  leaseMs: number;
  /** How often a holder renews it (default 5 s). */
  heartbeatMs: number;
  /** The clock leases are judged by; default the database's (clock_timestamp()). */
  now?: () => number;
  /** Who runs the job, as the lease row names them (the OS user). */
  operator: string;
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_HEARTBEAT_MS = 5_000;

export interface PgLease {
  readonly leaseId: string;
  /** Aborted when the lease was lost (taken over); its reason is the error to throw. */
  readonly signal: AbortSignal;
  /** In the transaction of a journal write: renews the lease, or throws (and aborts `signal`) when it is no longer this run's. */
  fence(client: pg.PoolClient): Promise<void>;
  /** Recorded where every desktop reads it; resolves once recorded (or not: the database out of reach, the run goes on). */
  setPaused(paused: boolean): Promise<void>;
  setStopping(): Promise<void>;
  release(): Promise<void>;
}

export interface LeaseRow {
  lease_id: string;
  desktop: string;
  pid: number;
  process_start: string | null;
  started_at: Date;
  paused: boolean;
  stopping: boolean;
  expired: boolean;
}

/** Leases this process let go of whose row could not be removed yet (the database out of reach): nobody runs their job. */
const letGo = new Set<string>();

/** The clock of a statement: the test's virtual one when given, else the database's. */
const CLOCK = (param: number) => `COALESCE($${param}::timestamptz, clock_timestamp())`;

export function leaseWhere(db: TeamDatabase, jobId: string): string {
  return `${db.where} (lease of batch job ${jobId})`;
}

export async function readLease(db: TeamDatabase, jobId: string, timings: LeaseTimings): Promise<LeaseRow | null> {
  try {
    const { rows } = await db.pool.query<LeaseRow>(
      `SELECT lease_id, desktop, pid, process_start, started_at, paused, stopping, expires_at < ${CLOCK(2)} AS expired FROM batch_leases WHERE job_id = $1`,
      [jobId, clockParam(timings)],
    );
    return rows[0] ?? null;
  } catch (error) {
    throw teamStoreError(db.where, error, 'connect');
  }
}

/** A holder that has ended on this computer (killed, crashed): its lease can be taken at once, without waiting for it to expire. */
function endedHere(row: LeaseRow): boolean {
  return row.desktop === hostname() && processEnded(row.pid, row.process_start ?? undefined);
}

export function leaseHolder(db: TeamDatabase, jobId: string, row: LeaseRow): BatchJobHolder {
  return holderOf({ pid: row.pid, host: row.desktop, startedAt: row.started_at.toISOString() }, leaseWhere(db, jobId));
}

/** Every lease there is, by job (the list: one query, however many jobs). */
export async function readLeases(db: TeamDatabase, timings: LeaseTimings): Promise<Map<string, LeaseRow>> {
  try {
    const { rows } = await db.pool.query<LeaseRow & { job_id: string }>(
      `SELECT job_id, lease_id, desktop, pid, process_start, started_at, paused, stopping, expires_at < ${CLOCK(1)} AS expired FROM batch_leases`,
      [clockParam(timings)],
    );
    return new Map(rows.map((row) => [row.job_id, row]));
  } catch (error) {
    throw teamStoreError(db.where, error, 'connect');
  }
}

/** Who runs a team job now: nobody (no lease, or an expired one), a desktop (running, paused, stopping), or a holder that ended here. */
export async function leaseRunner(db: TeamDatabase, jobId: string, timings: LeaseTimings): Promise<JobRunner> {
  return runnerOf(db, jobId, await readLease(db, jobId, timings));
}

export function runnerOf(db: TeamDatabase, jobId: string, row: LeaseRow | null | undefined): JobRunner {
  if (!row || row.expired || letGo.has(row.lease_id)) return { state: 'none' };
  if (endedHere(row)) return { state: 'ended', pid: row.pid };
  return { state: row.stopping ? 'stopping' : row.paused ? 'paused' : 'running', holder: leaseHolder(db, jobId, row) };
}

/** Takes the job's lease, or throws: TEAM_STORE_UNAVAILABLE when the database cannot be reached, the holder's words when another desktop runs it. */
export async function takeLease(db: TeamDatabase, jobId: string, timings: LeaseTimings): Promise<PgLease> {
  const before = await readLease(db, jobId, timings);
  const dead = before && !before.expired && (letGo.has(before.lease_id) || endedHere(before)) ? before.lease_id : null;
  let leaseId: string | null;
  try {
    leaseId = await claimLease(db.pool, jobId, timings, dead);
  } catch (error) {
    throw teamStoreError(db.where, error);
  }
  if (leaseId === null) throw await beingRun(db, jobId, timings);
  return holdLease(db, jobId, leaseId, timings);
}

/**
 * The one statement that takes a lease: this run's lease id, or null when the job's lease is another's (live). `dead`:
 * the lease of a holder seen to have ended on this computer. `run` may be the transaction that creates the job.
 */
export async function claimLease(run: Pick<pg.PoolClient, 'query'>, jobId: string, timings: LeaseTimings, dead: string | null = null): Promise<string | null> {
  const leaseId = randomUUID();
  const result = await run.query(
    `INSERT INTO batch_leases AS l (job_id, lease_id, desktop, pid, process_start, operator, started_at, since, heartbeat_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, ${CLOCK(7)}, ${CLOCK(7)}, ${CLOCK(7)}, ${CLOCK(7)} + $8 * interval '1 millisecond')
     ON CONFLICT (job_id) DO UPDATE SET lease_id = EXCLUDED.lease_id, desktop = EXCLUDED.desktop, pid = EXCLUDED.pid,
       process_start = EXCLUDED.process_start, operator = EXCLUDED.operator, db_role = current_user, started_at = EXCLUDED.started_at,
       since = EXCLUDED.since, paused = false, stopping = false, heartbeat_at = EXCLUDED.heartbeat_at, expires_at = EXCLUDED.expires_at
     WHERE l.expires_at < ${CLOCK(7)} OR l.lease_id = $9`,
    [jobId, leaseId, hostname(), process.pid, processStartOf(process.pid) ?? null, timings.operator, clockParam(timings), timings.leaseMs, dead],
  );
  return result.rowCount === 1 ? leaseId : null;
}

async function beingRun(db: TeamDatabase, jobId: string, timings: LeaseTimings): Promise<PrivacyDeskError> {
  const row = await readLease(db, jobId, timings);
  const seconds = Math.round(timings.leaseMs / 1000);
  const text = row ? beingRunText(jobId, leaseHolder(db, jobId, row), seconds) : msg('batch.runLockBusy', { job: jobId, seconds });
  return new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text });
}

/** The lease `leaseId` (committed) held by this run: its heartbeat, its fence, its flags. */
export function holdLease(db: TeamDatabase, jobId: string, leaseId: string, timings: LeaseTimings): PgLease {
  const lost = new AbortController();
  let released = false;
  let stopping = false;
  let paused = false;
  const loseIt = () => {
    if (!lost.signal.aborted) lost.abort(new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('batch.runLockLost', { job: jobId, path: leaseWhere(db, jobId) }) }));
    return lost.signal.reason as PrivacyDeskError;
  };
  const renew = async (run: Pick<pg.PoolClient, 'query'>) => {
    const result = await run.query(
      `UPDATE batch_leases SET heartbeat_at = ${CLOCK(3)}, expires_at = ${CLOCK(3)} + $4 * interval '1 millisecond' WHERE job_id = $1 AND lease_id = $2`,
      [jobId, leaseId, clockParam(timings), timings.leaseMs],
    );
    if (result.rowCount !== 1) throw loseIt();
  };
  const heartbeat = setInterval(() => {
    // Not reached (the network, the server): the next journal write says so and stops the run; the lease is renewed then.
    if (!released && !lost.signal.aborted) renew(db.pool).catch(() => undefined);
  }, timings.heartbeatMs);
  heartbeat.unref();
  lost.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true });
  const flags = async (set: string) => {
    if (released || lost.signal.aborted) return;
    // Not recorded (the database out of reach): this run still pauses or stops; other desktops read it as running.
    await db.pool.query(`UPDATE batch_leases SET ${set}, since = ${CLOCK(3)} WHERE job_id = $1 AND lease_id = $2`, [jobId, leaseId, clockParam(timings)]).catch(() => undefined);
  };
  return {
    leaseId,
    signal: lost.signal,
    async fence(client) {
      lost.signal.throwIfAborted();
      await renew(client);
    },
    async setPaused(value) {
      if (stopping || paused === value) return;
      paused = value;
      await flags(`paused = ${value ? 'true' : 'false'}`);
    },
    async setStopping() {
      if (stopping) return;
      stopping = true;
      await flags('stopping = true');
    },
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      if (lost.signal.aborted) return; // taken over: the row is another run's now
      letGo.add(leaseId);
      const remove = () => db.pool.query('DELETE FROM batch_leases WHERE job_id = $1 AND lease_id = $2', [jobId, leaseId]).then(() => letGo.delete(leaseId));
      // Not reached (the database lost): asked again while the lease lasts, so other desktops need not wait for it to expire.
      await remove().catch(() => {
        const until = Date.now() + timings.leaseMs;
        const retry = setInterval(() => {
          if (Date.now() > until) return clearInterval(retry);
          remove().then(() => clearInterval(retry), () => undefined);
        }, timings.heartbeatMs);
        retry.unref();
      });
    },
  };
}

function clockParam(timings: LeaseTimings): string | null {
  return timings.now ? new Date(timings.now()).toISOString() : null;
}
