import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_TEST_SECRET, ensureBuiltCli, REPO_ROOT, startCliFixture, type CliFixture, type CliRun } from './cli-harness';
import { batchEnv, sandboxUids } from './batch-harness';

/** The built bin as a child process, stdin piped; `onStderr` sees stderr as it comes (to press Ctrl-C at the right moment). */
function runBinPiped(f: CliFixture, args: string[], stdin: string, onStderr?: (soFar: string, child: ReturnType<typeof spawn>) => void): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args, ...f.connectionArgs()], { cwd: REPO_ROOT, env: batchEnv(f), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      onStderr?.(stderr, child);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      expect(`${stdout}${stderr}`).not.toContain(CLI_TEST_SECRET);
      resolve({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

// Only a real process shows what reaches the terminal from a pipe, the exit code, and a real SIGINT.
describe('privacy-desk batch as a child process', () => {
  let f: CliFixture;
  let uids: string[];

  beforeAll(async () => {
    ensureBuiltCli();
    f = await startCliFixture(30);
    uids = await sandboxUids(f);
  }, 60_000);
  afterAll(() => f?.close());

  it('reads the list piped on stdin; --json: one JSON document on stdout, exit 0, no progress bar on a piped stderr', async () => {
    const three = uids.splice(0, 3);
    const { code, stdout, stderr } = await runBinPiped(f, ['batch', 'delete', '-', '--yes', 'DELETE 3', '--json'], `${three.join('\n')}\n`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ state: 'finished', total: 3, counts: { done: 3, failed: 0, unfinished: 0 } });
    expect(stderr).not.toContain('%');
    for (const uid of three) expect((await f.sandboxUser(uid)).body?.state).toBe('deleted');
  });

  it('without --yes, a piped list is refused with exit 2 and nothing is sent', async () => {
    const before = f.sandbox.stats().apiRequests;
    const { code, stdout, stderr } = await runBinPiped(f, ['batch', 'delete', '-'], `${uids.slice(0, 2).join('\n')}\n`);
    expect(code).toBe(2);
    expect(stdout).toMatch(/valid uids: +2/);
    expect(stderr).toMatch(/--yes "DELETE 2"/);
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('SIGINT cancels the run: the item in flight finishes, nothing more is sent, exit 1 and how to resume', async () => {
    const ten = uids.splice(0, 10);
    // Each answer takes a second, so the run is surely still going when the signal arrives.
    f.sandbox.setFaults({ latencyMs: 1000 });
    let signalled = false;
    try {
      const { code, stdout, stderr } = await runBinPiped(f, ['batch', 'delete', '-', '--yes', 'DELETE 10', '--concurrency', '1', '--json'], `${ten.join('\n')}\n`, (soFar, child) => {
        if (!signalled && soFar.includes('items to go')) {
          signalled = true;
          child.kill('SIGINT');
        }
      });
      expect(stderr).toContain('Cancelling: the items in flight finish, nothing more is sent.');
      expect(code).toBe(1);
      const summary = JSON.parse(stdout) as { batchId: string; state: string; counts: { unfinished: number } };
      expect(summary.state).toBe('cancelled');
      expect(summary.counts.unfinished).toBeGreaterThanOrEqual(8);
      expect(stderr).toContain(`privacy-desk batch resume ${summary.batchId}`);
    } finally {
      f.sandbox.setFaults({ latencyMs: 0 });
    }
  }, 60_000);

  it('a reader that stops early (| head) ends the process quietly: exit 0, no EPIPE stack trace', async () => {
    for (const args of [['batch', 'list'], ['audit', 'list']]) {
      const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { cwd: REPO_ROOT, env: batchEnv(f), stdio: ['ignore', 'pipe', 'pipe'] });
        // The reading end is closed before the CLI writes anything: its first write meets EPIPE.
        child.stdout.destroy();
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
      });
      expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*main\.js/);
      expect(code).toBe(0);
    }
  }, 60_000);
});
