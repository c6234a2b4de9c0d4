/**
 * Who holds a job's run lock, said the same way everywhere: the refusal to run it twice (run-lock.ts), the job
 * list (`batch list`, the console's jobs) and the CLI's `batch resume`. Which process (pid, computer), since when
 * and where the lock is — so the operator can find that process, rather than be told "another process".
 */
import { hostname } from 'node:os';
import type { BatchJobHolder } from '../../shared/batch';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { DATA_LOCK_TIMINGS } from '../data-lock';
import { isoWithOffset } from '../local-time';
import type { RunnerRecord } from './job-runner';

export function holderOf(record: Pick<RunnerRecord, 'pid' | 'host' | 'startedAt'>, lockPath: string): BatchJobHolder {
  const onThisComputer = record.host === hostname();
  // The operator's wall time, to the second (a pid as text: a number would be written 4,242).
  const since = isoWithOffset(new Date(record.startedAt)).replace(/\.\d{3}/, '');
  const params = { pid: String(record.pid), host: record.host, since, path: lockPath };
  return {
    pid: record.pid,
    host: record.host,
    onThisComputer,
    since: record.startedAt,
    lockPath,
    text: msg(onThisComputer ? 'batch.holder.here' : 'batch.holder.elsewhere', params),
  };
}

/**
 * Why this process does not run the job: that one does. From another computer its process cannot be checked, so when
 * its lock expires is said too (`expiresAfterSeconds`: the data folder's run lock by default; a team job's lease).
 */
export function beingRunText(jobId: string, holder: BatchJobHolder, expiresAfterSeconds = DATA_LOCK_TIMINGS.STALE_MS / 1000): MessageText {
  return holder.onThisComputer
    ? msg('batch.runLockHeld', { job: jobId, holder: holder.text })
    : msg('batch.runLockHeldElsewhere', { job: jobId, holder: holder.text, seconds: expiresAfterSeconds });
}
