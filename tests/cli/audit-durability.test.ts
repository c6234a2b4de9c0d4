import { execFile, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditReading } from '../../shared/audit';
import { openAuditLog } from '../../core/audit-log';
import { AUDIT_LOCK, lockPathFor } from '../../core/data-lock';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { createRandom } from '../../sandbox/prng';
import { CLI_TEST_SECRET, REPO_ROOT } from './cli-harness';

/**
 * The audit trail survives a full disk and a crash, against the real sandbox and the real bundled CLI as a child process:
 * - full disk: the child runs under `ulimit -f`, with the audit file pre-filled so the limit falls
 *   before, inside and after each line the anonymise writes;
 * - crash: the child is killed with SIGKILL at a random moment (seeded), many times.
 * Whatever happens, no act without a complete 'attempted' entry, no success without its record,
 * and the chain verifies (a torn tail at most, set aside at the next open).
 */

// Our own bundle, inside the repo so its packages resolve, and untouched by anyone's `npm run build`.
const CLI_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'audit-durability-cli');
const CLI = join(CLI_DIR, 'main.js');

let sandbox: RunningSandbox;
let workDir: string;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', CLI_DIR], { cwd: REPO_ROOT, stdio: 'pipe' });
  sandbox = await startSandbox({ users: 0, apiSecret: CLI_TEST_SECRET });
  workDir = mkdtempSync(join(tmpdir(), 'audit-durability-'));
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function createUser(uid: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
  expect(response.status, `creating ${uid}`).toBeLessThan(300);
}

async function userState(uid: string): Promise<string | undefined> {
  const response = await fetch(`${sandbox.url}/sandbox/users/${encodeURIComponent(uid)}`);
  return response.status === 200 ? ((await response.json()) as { state?: string }).state : undefined;
}

function childEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PRIVACY_DESK_DATA_DIR: dataDir,
    PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
    PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
    PRIVACY_DESK_CREDENTIAL_STORE: 'session',
    NO_COLOR: '1',
  };
}

const anonymiseArgs = (uid: string) => ['users', 'anonymize', uid, '--confirm', uid, '--reference', 'DURABILITY', '--base-url', sandbox.url, '--app', sandbox.credentials.applicationName];

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The CLI under `ulimit -f limitKiB` (bash counts in 1024-byte blocks); no limit when undefined. */
function runCli(dataDir: string, args: string[], limitKiB?: number): Promise<Run> {
  const [command, argv] =
    limitKiB === undefined ? [process.execPath, [CLI, ...args]] : ['bash', ['-c', 'ulimit -f "$0" && exec "$1" "${@:2}"', String(limitKiB), process.execPath, CLI, ...args]];
  return new Promise((resolve) => {
    // Asynchronous: the sandbox answers from this process.
    execFile(command as string, argv as string[], { cwd: REPO_ROOT, env: childEnv(dataDir), timeout: 60_000 }, (error, stdout, stderr) => {
      const failure = error as (Error & { code?: number | string; signal?: NodeJS.Signals }) | null;
      resolve({ code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0, signal: failure?.signal ?? null, stdout, stderr });
    });
  });
}

const filler = (uid: string, reference: string): AuditEntry => ({
  at: '2026-11-22T18:00:00.000+01:00', actId: `filler-${uid}`, action: 'delete', outcome: 'done', uid, reference, profileId: 'filler', profileName: 'Filler', baseUrl: 'https://filler.example.com', via: 'cli', status: 200,
});

/**
 * Pre-fills a fresh audit file with three chained entries so that exactly `room` bytes are left
 * below a whole number of KiB; returns that number (the ulimit). Always three fillers, so the act
 * that follows has the same sequence numbers (and so the same line lengths) in every run.
 */
async function prefill(dataDir: string, room: number): Promise<number> {
  const log = openAuditLog(dataDir);
  const size = () => statSync(log.path).size;
  await log.append(filler('f1', 'x'.repeat(100)));
  const before = size();
  await log.append(filler('f2', 'x'.repeat(100)));
  const base = size() - before - 100; // a filler line's length without its reference
  const limitKiB = Math.ceil((size() + base + 50 + room) / 1024);
  const target = limitKiB * 1024 - room;
  await log.append(filler('f3', 'x'.repeat(target - size() - base)));
  expect(size()).toBe(target);
  return limitKiB;
}

async function readTrail(dataDir: string): Promise<AuditReading> {
  return openAuditLog(dataDir).read();
}

describe('a full disk never loses an act (child CLI under ulimit -f, real sandbox)', () => {
  it('sends nothing without a complete attempted entry, and never reports success without its record', { timeout: 120_000 }, async () => {
    // Calibration: the lines one anonymise writes, with the same prefill and no limit.
    const calibrationDir = mkdtempSync(join(workDir, 'calibration-'));
    await prefill(calibrationDir, 1_000_000);
    const filled = statSync(join(calibrationDir, 'audit.jsonl')).size;
    await createUser('disk-cal');
    const calibration = await runCli(calibrationDir, anonymiseArgs('disk-cal'));
    expect(calibration, calibration.stderr).toMatchObject({ code: 0 });
    const actLines = readFileSync(join(calibrationDir, 'audit.jsonl')).subarray(filled).toString('utf8').split(/(?<=\n)/);
    const lengths = actLines.map((line) => Buffer.byteLength(line));
    const kinds = actLines.map((line) => { const e = JSON.parse(line) as AuditEntry; return `${e.action}:${e.outcome}`; });
    const total = lengths.reduce((sum, n) => sum + n, 0);
    // Room left under the limit, for each line the act writes (log out first, then anonymise, then
    // the check): exactly the lines before it, half of it, all of it but one byte; then everything, and plenty.
    const rooms: number[] = [];
    let before = 0;
    for (const length of lengths) {
      rooms.push(before, before + Math.floor(length / 2), before + length - 1);
      before += length;
    }
    rooms.push(total, total + 500);

    const tally = { noErasureAttempt: 0, doneRecorded: 0, doneNotRecorded: 0 };
    for (const [k, room] of rooms.entries()) {
      const uid = `disk-${String(k).padStart(3, '0')}`; // same length as disk-cal: same line lengths
      await createUser(uid);
      const dataDir = mkdtempSync(join(workDir, `level-${k}-`));
      const limitKiB = await prefill(dataDir, room);
      const run = await runCli(dataDir, anonymiseArgs(uid), limitKiB);
      const where = `room ${room} bytes (lines ${JSON.stringify(lengths)} ${kinds.join(', ')}): exit ${run.code} ${run.signal ?? ''}\n${run.stderr}`;
      expect(run.signal, where).toBeNull(); // SIGXFSZ is ignored: the write fails with EFBIG instead of killing the CLI

      // After the disk frees up: read without the limit.
      const trail = await readTrail(dataDir);
      const mine = trail.entries.filter((e) => e.uid === uid);
      const attemptLine = mine.find((e) => e.outcome === 'attempted' && e.action === 'anonymize');
      const state = await userState(uid);
      expect(trail.corrupt, where).toEqual([]);
      expect(trail.verdict, where).toMatchObject({ ok: true });
      expect(trail.setAside, where).toBeUndefined(); // a failed write is cut back off: no fragment stays
      if (room < (lengths[0] as number)) {
        expect(mine, where).toEqual([]); // not even the first attempt fits: nothing at all is sent
        expect(run.stderr, where).toMatch(/AUDIT_WRITE_FAILED: The audit trail .* could not be written: the audit file reached the largest size this process may write .* Nothing was sent/);
      }

      if (!attemptLine) {
        expect(state, where).toBe('active'); // no erasure without its complete attempted entry
        expect(run.code, where).not.toBe(0);
        expect(run.stderr, where).toMatch(/AUDIT_WRITE_FAILED: /);
        tally.noErasureAttempt++;
        continue;
      }
      if (state === 'anonymized') {
        const done = mine.some((e) => e.action === 'anonymize' && e.outcome === 'done');
        const flagged = trail.outcomeMissing.some((m) => m.line === attemptLine.line);
        expect(done || flagged, where).toBe(true);
        if (run.code === 0) expect(done, where).toBe(true); // never a success printed with no record
        if (!done) {
          expect(run.code, where).toBe(4);
          expect(run.stderr, where).toMatch(/could not record that[\s\S]*Do not repeat the act[\s\S]*\nOutcome: done[\s\S]*\nThis command ends now, so what the audit trail could not record is not written later/);
          tally.doneNotRecorded++;
        } else tally.doneRecorded++;
      } else {
        expect(run.code, where).not.toBe(0);
      }
    }
    // The levels really covered each case.
    expect(tally.noErasureAttempt).toBeGreaterThanOrEqual(3);
    expect(tally.doneNotRecorded).toBeGreaterThanOrEqual(2);
    expect(tally.doneRecorded).toBeGreaterThanOrEqual(2);
    console.info(`full-disk levels: ${JSON.stringify({ lines: kinds, lengths, rooms, ...tally })}`);
  });
});


describe('a crash at any moment never corrupts the trail (SIGKILL, seeded delays)', () => {
  it('leaves a chain that verifies, or only a torn tail that the next open sets aside', { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(join(workDir, 'crash-'));
    // Typical duration of one anonymise, to spread the kills over it (a delay before a signal, not a wait for an outcome).
    await createUser('crash-cal');
    const started = performance.now();
    expect((await runCli(dataDir, anonymiseArgs('crash-cal'))).code).toBe(0);
    const typicalMs = performance.now() - started;

    const random = seeded(0x7a11);
    const RUNS = 20;
    const seen = { verified: 0, tornTail: 0, actTookEffect: 0 };
    for (let run = 0; run < RUNS; run++) {
      const uid = `crash-${String(run).padStart(3, '0')}`;
      await createUser(uid);
      const child = spawn(process.execPath, [CLI, ...anonymiseArgs(uid)], { cwd: REPO_ROOT, env: childEnv(dataDir), stdio: 'ignore' });
      const exited = once(child, 'exit');
      // Up to a quarter past the typical end, so some kills land after the erasure left, some after the whole run.
      const timer = setTimeout(() => child.kill('SIGKILL'), Math.floor(random() * typicalMs * 1.25));
      await exited;
      clearTimeout(timer);
      // The killed CLI may have left its lock folder; no Privacy Desk is running, so it goes (as the lock's message tells an operator).
      rmSync(lockPathFor(dataDir, AUDIT_LOCK), { recursive: true, force: true });

      const verdict = await openAuditLog(dataDir).verify();
      const where = `run ${run}: ${JSON.stringify(verdict)}`;
      if (verdict.ok) seen.verified++;
      else {
        expect(verdict.kind, where).toBe('torn-tail');
        seen.tornTail++;
      }
      const trail = await readTrail(dataDir); // the next open
      expect(trail.verdict, where).toMatchObject({ ok: true });
      expect(trail.corrupt, where).toEqual([]); // no entry glued onto another
      expect(Boolean(trail.setAside), where).toBe(!verdict.ok);
      if ((await userState(uid)) === 'anonymized') {
        seen.actTookEffect++;
        expect(trail.entries.some((e) => e.uid === uid && e.outcome === 'attempted'), `${where}: an act took effect without its attempted entry`).toBe(true);
      }
    }
    const asideFiles = readdirSync(dataDir).filter((name) => name.startsWith('audit.jsonl.torn-'));
    expect(asideFiles).toHaveLength(seen.tornTail);
    console.info(`crash runs: ${JSON.stringify({ runs: RUNS, typicalMs: Math.round(typicalMs), ...seen })}`);
  });
});

/** The sandbox's own seeded generator (mulberry32), so every run of the test picks the same moments. */
function seeded(seed: number): () => number {
  return createRandom(seed).next;
}
