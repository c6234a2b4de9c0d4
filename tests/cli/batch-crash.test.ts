import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_LOCK_TIMINGS } from '../../core/data-lock';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createRandom } from '../../sandbox/prng';
import type { BatchCounts, BatchJobSummary, BatchResultRow } from '../../shared/batch';
import { assertSecretNowhereUnder, CLI_TEST_SECRET, ensureBuiltCli, REPO_ROOT } from './cli-harness';

/**
 * The built CLI killed with SIGKILL mid-batch, several times at random
 * moments, then `batch resume` until the job is finished; the sandbox's state and the results
 * agree item by item, nothing was erased twice, and the audit chain verifies. The batch is started
 * with --check, so uids the service does not know stay "not found" even when a kill caught them in
 * flight.
 *
 * The kill points are drawn from a fixed seed (printed) and counted in erasure requests the
 * sandbox answered since the process started, never in wall-clock time: the sandbox runs in this
 * process, so its request log tells the test exactly when to pull the plug.
 */

const SEED = 8_2026;
const EXISTING = 240;
const NEVER_EXISTED = 12;
const KILLS = 4;
const LATENCY_MS = 10;
const CONCURRENCY = '8';


const SHAPES = [(i: number) => `crash-user-${i}`, (i: number) => `zoë müller ${i}`, (i: number) => `team/lead?${i}`, (i: number) => `100%#${i}`];
const existingUid = (i: number) => (SHAPES[i % SHAPES.length] as (i: number) => string)(i);
const missingUid = (i: number) => `crash-never-existed-${i}`;

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

describe('the CLI killed with SIGKILL mid-batch, then batch resume', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  let inputDir: string;
  // Set while a run may be killed: after `remaining` more erasure answers, the child gets SIGKILL.
  let killSwitch: { remaining: number; child: ChildProcess; fired: boolean } | null = null;

  beforeAll(async () => {
    ensureBuiltCli();
    sandbox = await startSandbox({
      users: 0,
      apiSecret: CLI_TEST_SECRET,
      faults: { latencyMs: LATENCY_MS },
      quiet: false,
      // One line per answered request: the erasures count down to the kill.
      log: (line) => {
        if (!killSwitch || killSwitch.fired || !line.startsWith('DELETE /api/')) return;
        killSwitch.remaining -= 1;
        if (killSwitch.remaining <= 0) {
          killSwitch.fired = true;
          killSwitch.child.kill('SIGKILL');
        }
      },
    });
    for (let i = 0; i < EXISTING; i += 1) {
      const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: existingUid(i) }) });
      expect(response.status).toBe(201);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-crash-'));
    inputDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-crash-input-'));
  }, 120_000);
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

  /** The built bin as a child process; killed after `killAfter` erasure answers when given. */
  function bin(args: string[], killAfter?: number): Promise<Ended> {
    const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { cwd: REPO_ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    if (killAfter !== undefined) killSwitch = { remaining: killAfter, child, fired: false };
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => {
        if (killSwitch?.child === child) killSwitch = null;
        expect(`${stdout}${stderr}`).not.toContain(CLI_TEST_SECRET);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /**
   * A killed process leaves its locks behind (the job's run lock, maybe the audit trail's); another
   * process takes them over once they are stale, DATA_LOCK_TIMINGS.STALE_MS after their last
   * refresh. Instead of waiting that long, the test ages them: the clock of the lock files moves,
   * nobody sleeps. Only ever done once the process holding them is dead.
   */
  function ageLeftoverLocks(dir: string): string[] {
    const aged: string[] = [];
    const past = new Date(Date.now() - DATA_LOCK_TIMINGS.STALE_MS - 60_000);
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (name.endsWith('.lock')) {
        utimesSync(path, past, past);
        aged.push(path);
      } else if (statSync(path).isDirectory()) aged.push(...ageLeftoverLocks(path));
    }
    return aged;
  }

  async function jobs(): Promise<BatchJobSummary[]> {
    const listed = await bin(['batch', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    return (JSON.parse(listed.stdout) as { jobs: BatchJobSummary[] }).jobs;
  }

  it('finishes after kills and resumes; the results agree with the sandbox item by item; the audit chain verifies', async () => {
    const random = seeded(SEED);
    console.log(`batch-crash: kill points drawn from seed ${SEED}`);
    const uids: string[] = [];
    for (let i = 0, missing = 0; i < EXISTING; i += 1) {
      uids.push(existingUid(i));
      if (i % 20 === 9 && missing < NEVER_EXISTED) uids.push(missingUid(missing++));
    }
    const missingUids = new Set(uids.filter((uid) => uid.startsWith('crash-never-existed-')));
    expect(missingUids.size).toBe(NEVER_EXISTED);
    const total = uids.length;
    const file = join(inputDir, 'uids.txt');
    writeFileSync(file, `${uids.join('\n')}\n`);

    // Kill points: a random share of what is left, so every kill lands mid-run.
    const killAt = (unfinished: number) => 1 + Math.floor(random() * Math.max(1, Math.floor(unfinished / 2)));
    const history: string[] = [];
    let batchId: string | undefined;
    let unfinished = total;
    for (let kill = 0; kill < KILLS; kill += 1) {
      const after = killAt(unfinished);
      const args = batchId === undefined
        ? ['batch', 'delete', file, '--check', '--yes', `DELETE ${total}`, '--concurrency', CONCURRENCY, '--json', ...connection()]
        : ['batch', 'resume', batchId, '--yes', `DELETE ${unfinished}`, '--concurrency', CONCURRENCY, '--json', ...connection()];
      const ended = await bin(args, after);
      expect(ended.signal, `run ${kill + 1} was to be killed after ${after} erasures; it ended: ${ended.stderr}`).toBe('SIGKILL');
      // At once, while the killed run's lock still looks held: its process is gone, so nobody runs the job.
      if (batchId !== undefined) expect((await jobs()).find((listed) => listed.batchId === batchId)).toMatchObject({ state: 'unfinished' });
      const aged = ageLeftoverLocks(dataDir);
      const [job] = await jobs();
      expect(job).toBeDefined();
      batchId ??= job!.batchId;
      expect(job).toMatchObject({ batchId, state: 'unfinished', total });
      unfinished = job!.counts.unfinished;
      history.push(`killed after ${after} erasure answers → ${unfinished} unfinished (${aged.length} lock(s) left behind)`);
      expect(unfinished).toBeGreaterThan(0);
    }

    // The last resume runs to the end.
    const last = await bin(['batch', 'resume', batchId!, '--yes', `DELETE ${unfinished}`, '--concurrency', CONCURRENCY, '--json', ...connection()]);
    expect(last.code, last.stderr).toBe(0);
    const summary = JSON.parse(last.stdout) as { state: string; counts: BatchCounts };
    expect(summary).toMatchObject({ batchId, state: 'finished', total });
    expect(summary.counts.unfinished).toBe(0);
    const resumeAgain = await bin(['batch', 'resume', batchId!, '--json', ...connection()]);
    expect(resumeAgain.code).toBe(0);
    expect(JSON.parse(resumeAgain.stdout)).toMatchObject({ batchId, state: 'finished' });

    // The results and the sandbox, item by item.
    const exported = await bin(['batch', 'results', batchId!, '--format', 'json']);
    expect(exported.code, exported.stderr).toBe(0);
    const { rows, counts } = JSON.parse(exported.stdout) as { rows: BatchResultRow[]; counts: BatchCounts };
    expect(rows.map((row) => row.uid)).toEqual(uids);
    expect(counts).toEqual(summary.counts);
    const problems: string[] = [];
    for (const row of rows) {
      const inspected = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(row.uid)}`);
      const state = inspected.status === 200 ? ((await inspected.json()) as { state: string }).state : undefined;
      const log = sandbox.requestLog(row.uid).filter((request) => request.act === 'delete');
      const effective = log.filter((request) => request.status >= 200 && request.status < 300);
      const say = (what: string) => problems.push(`${row.outcome} ${JSON.stringify(row.uid)}: ${what}; sandbox ${state ?? 'never existed'}, log ${JSON.stringify(log.map(({ status }) => status))}`);
      if (effective.length > 1) say(`erased ${effective.length} times with success`);
      if (missingUids.has(row.uid)) {
        if (state !== undefined || effective.length > 0) say('a uid that never existed was erased');
        // The check before the confirmation did not find it: "not found", even when it was in flight at a kill and re-checked.
        if (row.outcome !== 'not-found') say('a uid that never existed (and the check said so) is not "not found"');
      } else {
        if (row.outcome !== 'done' && row.outcome !== 'done-before-interruption') say('an existing uid is not done');
        if (state !== 'deleted') say('not deleted in the sandbox');
        if (effective.length !== 1) say('not erased exactly once');
        // Done: its erasure was answered and recorded; nothing was sent for it afterwards.
        if (row.outcome === 'done' && log.at(-1) !== effective[0]) say('something was sent after the erasure recorded done');
        // Done before the interruption: its erasure went out before a kill, the resume met a 404.
        if (row.outcome === 'done-before-interruption' && log.at(-1)?.status !== 404) say('no 404 after the erasure');
      }
    }
    expect(problems).toEqual([]);

    const verified = await bin(['audit', 'verify', '--json']);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
    console.log(`batch-crash: ${history.join('; ')}; finished: ${JSON.stringify(summary.counts)}`);
  }, 180_000);
});

/** The sandbox's own seeded generator (mulberry32), so every run of the test picks the same moments. */
function seeded(seed: number): () => number {
  return createRandom(seed).next;
}
