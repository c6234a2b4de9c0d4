import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobPaths } from '../../core/batch/job-files';
import { isoWithOffset } from '../../core/local-time';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import type { BatchCounts, BatchJobSummary, BatchResultRow } from '../../shared/batch';
import { assertSecretNowhereUnder, CLI_TEST_SECRET, ensureBuiltCli, REPO_ROOT } from './cli-harness';

/**
 * `batch resume` right after the built CLI running a batch is killed with SIGKILL: the killed run's lock is still
 * fresh, and only its process being gone frees it. Its refresh time is even moved an hour ahead, so no wait for it to
 * go stale could pass this test: resuming works at once or not at all. Kills are counted in erasure answers of the
 * sandbox (it runs in this process), never in time. And a job a live process runs is refused, naming that process.
 */

const USERS = 48;
const uidOf = (i: number) => `kill-resume-${i}`;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe('batch resume right after a SIGKILL, with the built CLI', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  let inputDir: string;
  let killSwitch: { remaining: number; child: ChildProcess } | null = null;

  beforeAll(async () => {
    ensureBuiltCli();
    sandbox = await startSandbox({
      users: 0,
      apiSecret: CLI_TEST_SECRET,
      faults: { latencyMs: 5 },
      quiet: false,
      log: (line) => {
        if (!killSwitch || !line.startsWith('DELETE /api/')) return;
        killSwitch.remaining -= 1;
        if (killSwitch.remaining > 0) return;
        killSwitch.child.kill('SIGKILL');
        killSwitch = null;
      },
    });
    for (let i = 0; i < USERS; i += 1) {
      const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: uidOf(i) }) });
      expect(response.status).toBe(201);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-resume-kill-'));
    inputDir = mkdtempSync(join(tmpdir(), 'privacy-desk-resume-kill-input-'));
  }, 60_000);
  afterAll(async () => {
    if (dataDir) assertSecretNowhereUnder(dataDir, CLI_TEST_SECRET);
    await sandbox?.close();
    for (const dir of [dataDir, inputDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    PRIVACY_DESK_DATA_DIR: dataDir,
    PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
    PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
    PRIVACY_DESK_CREDENTIAL_STORE: 'session',
    NO_COLOR: '1',
  });
  const connection = () => ['--base-url', sandbox.url, '--app', sandbox.credentials.applicationName];

  /** The built bin as a child process; killed with SIGKILL after `killAfter` erasure answers when given. */
  function bin(args: string[], killAfter?: number): Promise<Ended & { pid: number }> {
    const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { cwd: REPO_ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    if (killAfter !== undefined) killSwitch = { remaining: killAfter, child };
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        expect(`${stdout}${stderr}`).not.toContain(CLI_TEST_SECRET);
        resolve({ code, signal, stdout, stderr, pid: child.pid! });
      });
    });
  }

  async function jobs(): Promise<BatchJobSummary[]> {
    const list = await bin(['batch', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    return (JSON.parse(list.stdout) as { jobs: BatchJobSummary[] }).jobs;
  }

  /**
   * What a killed run leaves: its lock, still there (here made to look refreshed for the next hour), and its record
   * naming its pid; the job listed as unfinished at once. Returns the job.
   */
  async function leftBehindBy(killed: { pid: number; signal: NodeJS.Signals | null; stderr: string }): Promise<BatchJobSummary> {
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    const [job] = await jobs();
    const { runLock, runner } = jobPaths(dataDir, job!.batchId);
    expect(existsSync(runLock)).toBe(true);
    expect(JSON.parse(readFileSync(runner, 'utf8'))).toMatchObject({ pid: killed.pid, host: hostname() });
    const anHourAhead = new Date(Date.now() + 3_600_000);
    utimesSync(runLock, anHourAhead, anHourAhead);
    expect(job).toMatchObject({ state: 'unfinished' });
    expect(job!.holder).toBeUndefined();
    expect(job!.counts.unfinished).toBeGreaterThan(0);
    return job!;
  }

  it('batch resume, then batch resume JOB, each at once after a kill: every item finished, none erased twice', async () => {
    const file = join(inputDir, 'uids.txt');
    const uids = Array.from({ length: USERS }, (_, i) => uidOf(i));
    writeFileSync(file, `${uids.join('\n')}\n`);

    const started = await bin(['batch', 'delete', file, '--yes', `DELETE ${USERS}`, '--concurrency', '4', '--json', ...connection()], 12);
    const afterFirstKill = await leftBehindBy(started);
    const { batchId } = afterFirstKill;

    // Without JOB: the most recent unfinished job is the killed one, and it is run (then killed again).
    const resumed = await bin(['batch', 'resume', '--yes', `DELETE ${afterFirstKill.counts.unfinished}`, '--concurrency', '4', '--json', ...connection()], 12);
    expect(resumed.stderr).toContain(`Batch ${batchId}: ${afterFirstKill.counts.unfinished} items to go.`);
    const afterSecondKill = await leftBehindBy(resumed);
    expect(afterSecondKill.batchId).toBe(batchId);
    expect(afterSecondKill.counts.unfinished).toBeLessThan(afterFirstKill.counts.unfinished);

    // With JOB: run to the end.
    const finished = await bin(['batch', 'resume', batchId, '--yes', `DELETE ${afterSecondKill.counts.unfinished}`, '--concurrency', '4', '--json', ...connection()]);
    expect(finished.code, finished.stderr).toBe(0);
    expect(JSON.parse(finished.stdout)).toMatchObject({ batchId, state: 'finished', total: USERS, counts: { unfinished: 0, failed: 0 } });

    const exported = await bin(['batch', 'results', batchId, '--format', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    const { rows } = JSON.parse(exported.stdout) as { rows: BatchResultRow[]; counts: BatchCounts };
    expect(rows.map((row) => row.uid)).toEqual(uids);
    const problems: string[] = [];
    for (const row of rows) {
      const log = sandbox.requestLog(row.uid).filter((request) => request.act === 'delete');
      const effective = log.filter((request) => request.status >= 200 && request.status < 300);
      const say = (what: string) => problems.push(`${row.outcome} ${row.uid}: ${what}; log ${JSON.stringify(log.map(({ status }) => status))}`);
      if (row.outcome !== 'done' && row.outcome !== 'done-before-interruption') say('not done');
      if (effective.length !== 1) say('not erased exactly once');
      // Recorded done: nothing was sent for it afterwards (no second "done").
      if (row.outcome === 'done' && log.at(-1) !== effective[0]) say('sent again after it was recorded done');
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('a job a live process runs is refused, naming that process (pid, computer, since when, its lock), and nothing is sent', async () => {
    const held = ['held-0', 'held-1', 'held-2'];
    for (const uid of held) {
      const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
      expect(response.status).toBe(201);
    }
    // Another process holds the job's run lock (as a run does), says the job id, and lets go when its stdin ends.
    const HOLDER = `
      import { createJob } from ${JSON.stringify(join(REPO_ROOT, 'core/batch/journal.ts'))};
      const journal = await createJob(process.argv[1], { action: 'delete', profileId: 'temporary', profileName: 'sandbox (--base-url)', baseUrl: process.argv[2], logoutFirst: false, total: 3, source: 'held.txt' });
      await journal.appendItems(${JSON.stringify(held)}.map((uid, index) => ({ line: index + 1, uid })));
      await journal.finishItems();
      console.log(journal.jobId);
      process.stdin.on('end', () => journal.close());
      process.stdin.resume();
    `;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', HOLDER, dataDir, sandbox.url], { cwd: REPO_ROOT });
    try {
      const [chunk] = (await once(holder.stdout, 'data')) as [Buffer];
      const batchId = chunk.toString().trim();
      const { runLock, runner } = jobPaths(dataDir, batchId);
      const since = isoWithOffset(new Date((JSON.parse(readFileSync(runner, 'utf8')) as { startedAt: string }).startedAt)).replace(/\.\d{3}/, '');
      const named = `process ${holder.pid} on this computer (${hostname()}) since ${since}, holding the lock ${runLock}`;

      const refused = await bin(['batch', 'resume', batchId, '--yes', 'DELETE 3', ...connection()]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Batch job ${batchId} is being run by ${named}, so this one sent nothing.`);

      const picked = await bin(['batch', 'resume', '--yes', 'DELETE 3', ...connection()]);
      expect(picked.code, picked.stderr).toBe(0);
      expect(picked.stdout).toContain(`Nothing to resume here. Batch job ${batchId} is being run by ${named}`);
      expect(picked.stdout).not.toContain('No unfinished batch job');
      const json = await bin(['batch', 'resume', '--json', ...connection()]);
      expect(JSON.parse(json.stdout)).toEqual({
        batchId: null,
        state: 'nothing-to-resume',
        beingRun: [{ batchId, state: 'running', holder: { pid: holder.pid, host: hostname(), onThisComputer: true, since: expect.any(String), lockPath: runLock }, message: expect.stringContaining(named) }],
      });

      const list = await bin(['batch', 'list']);
      expect(list.stdout).toContain(`Batch ${batchId} is running, run by ${named}.`);
      for (const uid of held) expect(sandbox.requestLog(uid), uid).toEqual([]);
    } finally {
      holder.stdin.end();
      if (holder.exitCode === null) await once(holder, 'exit');
    }
  }, 60_000);
});
