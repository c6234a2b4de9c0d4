/**
 * Whether a process of this computer has ended, as a run lock's holder (job-runner.ts) is judged. A signal 0
 * tells only that the pid is taken; two more cases mean the holder is gone although its pid answers:
 * - a zombie: killed, but not yet reaped by its parent (a shell or script that has not waited for it yet) —
 *   it runs nothing, and right after a SIGKILL this is what the pid often is;
 * - a pid reused by another process since: its start (Linux: /proc/PID/stat, in clock ticks since boot) is
 *   not the one the holder recorded.
 * Where /proc is absent (macOS, Windows) only the signal is asked.
 */
import { readFileSync } from 'node:fs';

interface ProcessStat {
  /** R, S, D… ; Z: a zombie; X: dead. */
  state: string;
  /** Field 22: when it started, in clock ticks after boot — the same number for the process's whole life. */
  start: string;
}

/** Linux only; null elsewhere, or when the process is gone. */
function statOf(pid: number): ProcessStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses: count fields after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const [state, start] = [fields[0], fields[19]];
  return state && start ? { state, start } : null;
}

/** How this process's start is recorded, to tell it from a later process given the same pid; undefined without /proc. */
export function processStartOf(pid: number): string | undefined {
  return statOf(pid)?.start;
}

/** True only when the process is known to be gone; when nothing can be told, false. */
export function processEnded(pid: number, recordedStart?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // ESRCH: no such process. EPERM: it exists (another user's) — /proc still tells a zombie or a reused pid.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = statOf(pid);
  if (!stat) return false;
  if (stat.state === 'Z' || stat.state === 'X') return true;
  return recordedStart !== undefined && stat.start !== recordedStart;
}
