// The sandbox in its own process for the benchmarks (port 0: any free port), so the CLI meets a real service.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Resolves with the sandbox's URL and credentials once it has printed them; `stop()` ends it. */
export function startSandbox(extraArgs = [], startMs = 30_000) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', '--port', '0', ...extraArgs], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const facts = {};
  const fields = { 'URL': 'url', 'API key': 'apiKey', 'Secret key': 'apiSecret', 'Application name': 'applicationName' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`The sandbox did not start within ${startMs / 1000} s.`)), startMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill();
      reject(error);
    };
    child.on('exit', (code) => fail(new Error(`The sandbox stopped at start (exit ${code}).`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const at = line.indexOf(': ');
      const key = fields[line.slice(0, at)];
      if (key) facts[key] = line.slice(at + 2);
      if (Object.keys(facts).length === Object.keys(fields).length) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        // Its request log goes nowhere (read and dropped, so a full pipe never stalls it).
        child.stdout.resume();
        resolve({ ...facts, stop: () => child.kill() });
      }
    });
  });
}
