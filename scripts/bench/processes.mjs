// Child processes timed from spawn to exit: what a person running the command waits for.
import { spawn } from 'node:child_process';
import { root } from './paths.mjs';

/**
 * Runs a command to its end; resolves with its exit code, output and wall time in milliseconds.
 * `interruptAfterMs`: send SIGINT then (a batch cancels: its items in flight finish), and SIGKILL 30 s later;
 * `interrupted` then says so and `ms` is the time until the SIGINT, so a rate over it counts only the time
 * the run was allowed.
 */
export function runTimed(command, args, { env = process.env, cwd = root, interruptAfterMs } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interruptedAt;
    const timers = [];
    if (interruptAfterMs !== undefined) {
      timers.push(setTimeout(() => {
        interruptedAt = process.hrtime.bigint();
        child.kill('SIGINT');
        timers.push(setTimeout(() => child.kill('SIGKILL'), 30_000));
      }, interruptAfterMs));
    }
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      timers.forEach(clearTimeout);
      const end = interruptedAt ?? process.hrtime.bigint();
      resolve({ code, signal, stdout, stderr, ms: Number(end - started) / 1e6, interrupted: interruptedAt !== undefined });
    });
  });
}

/** runTimed, failing with the command's last words when it does not exit 0. */
export async function runOk(label, command, args, options) {
  const result = await runTimed(command, args, options);
  if (result.code !== 0) throw new Error(`${label} failed (exit ${result.code ?? result.signal}): ${(result.stderr || result.stdout).slice(-1500)}`);
  return result;
}
