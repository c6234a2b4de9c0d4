import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../core/audit-log';
import type { AuditEntry } from '../../shared/audit';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { CLI_TEST_SECRET, REPO_ROOT } from './cli-harness';

/**
 * Every way a full disk can end a single act, met by the built CLI under `ulimit -f` (the way
 * tests/cli/audit-durability.test.ts simulates a full disk), with the limit falling inside exactly one
 * line of the act. Each ending says one consistent thing — what was done, what the trail holds and
 * lacks, what to do — and exits 4 when an outcome the service gave could not be recorded.
 */

const CLI_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'full-disk-messages-cli');
const CLI = join(CLI_DIR, 'main.js');

let sandbox: RunningSandbox;
let workDir: string;
beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--outdir', CLI_DIR], { cwd: REPO_ROOT, stdio: 'pipe' });
  sandbox = await startSandbox({ users: 0, apiSecret: CLI_TEST_SECRET });
  workDir = mkdtempSync(join(tmpdir(), 'full-disk-messages-'));
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(dataDir: string, args: string[], limitKiB?: number): Promise<Run> {
  const full = [...args, '--base-url', sandbox.url, '--app', sandbox.credentials.applicationName];
  const [command, argv] = limitKiB === undefined ? [process.execPath, [CLI, ...full]] : ['bash', ['-c', 'ulimit -f "$0" && exec "$1" "${@:2}"', String(limitKiB), process.execPath, CLI, ...full]];
  const env = { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey, PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' };
  return new Promise((resolve) => {
    execFile(command as string, argv as string[], { cwd: REPO_ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const failure = error as (Error & { code?: number | string }) | null;
      resolve({ code: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0, stdout, stderr });
    });
  });
}

async function createUser(uid: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
  expect(response.status).toBe(201);
}

const filler = (reference: string): AuditEntry => ({
  at: '2026-11-22T18:00:00.000+01:00', actId: 'filler', action: 'delete', outcome: 'done', uid: 'filler', reference, profileId: 'filler', profileName: 'Filler', baseUrl: 'https://filler.example.com', via: 'cli', status: 200,
});

/** A trail of two chained fillers leaving exactly `room` bytes below a whole number of KiB; returns that number. */
async function prefill(dataDir: string, room: number): Promise<number> {
  const log = openAuditLog(dataDir);
  const size = () => statSync(log.path).size;
  await log.append(filler('x'));
  const before = size();
  await log.append(filler('x'));
  const base = size() - before - 1;
  const limitKiB = Math.ceil((size() + base + 2000 + room) / 1024);
  await log.append(filler('x'.repeat(limitKiB * 1024 - room - size() - base)));
  expect(size()).toBe(limitKiB * 1024 - room);
  return limitKiB;
}

/** The byte length of each line `args` writes for `uid`, from a run with room to spare. */
async function lineLengths(args: (uid: string) => string[], uid: string): Promise<number[]> {
  const dataDir = mkdtempSync(join(workDir, 'calibration-'));
  await prefill(dataDir, 1_000_000);
  const filled = statSync(join(dataDir, 'audit.jsonl')).size;
  const run = await runCli(dataDir, args(uid));
  expect([0, 1], run.stderr).toContain(run.code);
  return readFileSync(join(dataDir, 'audit.jsonl')).subarray(filled).toString('utf8').split(/(?<=\n)/).map((line) => Buffer.byteLength(line));
}

/** Runs `args` with the disk filling up halfway through line `failing` (0-based) of what it writes. */
async function fullAt(args: (uid: string) => string[], uid: string, lengths: number[], failing: number): Promise<Run & { trail: AuditEntry[] }> {
  const dataDir = mkdtempSync(join(workDir, `full-${failing}-`));
  const room = lengths.slice(0, failing).reduce((sum, n) => sum + n, 0) + Math.floor((lengths[failing] as number) / 2);
  const limitKiB = await prefill(dataDir, room);
  const run = await runCli(dataDir, args(uid), limitKiB);
  const trail = (await openAuditLog(dataDir).read()).entries.filter((entry) => entry.uid === uid);
  return { ...run, trail };
}

const anonymise = (uid: string) => ['users', 'anonymize', uid, '--confirm', uid];
const CONTRADICTIONS = [/that is recorded[\s\S]*NOT in the audit trail/, /Do not repeat[\s\S]*[Tt]ry again/];
const consistent = (stderr: string) => {
  for (const contradiction of CONTRADICTIONS) expect(stderr).not.toMatch(contradiction);
};

describe('a full disk during an anonymise (log out first, erase, check)', () => {
  let lengths: number[];
  beforeAll(async () => {
    await createUser('calibrate');
    lengths = await lineLengths(anonymise, 'calibrate');
    expect(lengths).toHaveLength(6); // logout attempted, done; anonymize attempted, done; check attempted, verification
  }, 60_000);

  it('the logout’s outcome cannot be recorded: exit 4; the logout was sent, the anonymisation was not', async () => {
    await createUser('full-b');
    const run = await fullAt(anonymise, 'full-b', lengths, 1);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: The logout sent first was accepted, but the audit trail .* could not record that: .* The trail holds the logout’s attempt with no outcome\. The user was not anonymised: the anonymisation was not sent\./m);
    expect(run.stderr).toMatch(/^Outcome: not sent — the anonymisation did not reach the service; the logout sent before it did \(done\), and the audit trail lacks its outcome\.$/m);
    expect(run.stderr).toMatch(/This command ends now, so what the audit trail could not record is not written later: note it by hand\./);
    consistent(run.stderr);
    expect(run.trail.map((e) => `${e.action}:${e.outcome}`)).toEqual(['logout:attempted']);
  });

  it('the anonymisation’s attempt cannot be written: exit 1, nothing more sent, and the logout said to be sent and recorded', async () => {
    await createUser('full-c');
    const run = await fullAt(anonymise, 'full-c', lengths, 2);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: The audit trail .* could not be written: the audit file reached the largest size this process may write \(a file size limit\)\. So the anonymisation was not sent: no act happens without its audit record\. The logout sent before it is recorded \(done\)\. Free some disk space \(or raise the limit\), then anonymise the user again\. \(EFBIG\)$/m);
    expect(run.stderr).toMatch(/^Outcome: not sent — the anonymisation did not reach the service; the logout sent before it did \(done\), and that is recorded\.$/m);
    consistent(run.stderr);
  });

  it('the anonymisation’s outcome cannot be recorded: exit 4, do not repeat it, note it by hand', async () => {
    await createUser('full-d');
    const run = await fullAt(anonymise, 'full-d', lengths, 3);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: The user was anonymised, but the audit trail .* could not record that: .* The trail holds the attempt with no outcome, and the check afterwards was not sent\. Do not repeat the act; note its outcome by hand \(done, status 200[^)]*\)\. Free some disk space \(or raise the limit\)\./m);
    expect(run.stderr).toMatch(/^Outcome: done — the service carried it out; do not repeat it\.$/m);
    consistent(run.stderr);
  });

  it('the check’s result cannot be recorded: exit 4, and the anonymisation’s outcome said to be recorded (only the check’s is missing)', async () => {
    await createUser('full-f');
    const run = await fullAt(anonymise, 'full-f', lengths, 5);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: The user was anonymised, and that is recorded\. The check afterwards found: the uid no longer resolves; but the audit trail .* could not record that: .* The trail holds the check’s attempt with no result\. Do not repeat the act; note the check’s result by hand\. Free some disk space/m);
    expect(run.stderr).not.toMatch(/NOT in the audit trail/);
    expect(run.stderr).toMatch(/^Outcome: done — the service carried it out; do not repeat it.\nThis command ends now/m);
    consistent(run.stderr);
  });
});

describe('a full disk after a refusal or a logout', () => {
  it('a refused delete (not found) whose outcome cannot be recorded: exit 4, the refusal and the gap both said', async () => {
    const args = (uid: string) => ['users', 'delete', uid, '--confirm', uid, '--no-logout-first'];
    const lengths = await lineLengths(args, 'never-1');
    expect(lengths).toHaveLength(2);
    const run = await fullAt(args, 'never-2', lengths, 1);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: No user with uid “never-2” exists .* The audit trail .* could not record this outcome: .* The trail holds the attempt with no outcome\. Note the outcome by hand \(refused, status 404\)\. Free some disk space/m);
    expect(run.stderr).toMatch(/^Outcome: refused by the service — nothing was changed\.$/m);
    consistent(run.stderr);
  });

  it('a logout whose outcome cannot be recorded: exit 4', async () => {
    const args = (uid: string) => ['logout', uid];
    const lengths = await lineLengths(args, 'someone-1');
    const run = await fullAt(args, 'someone-2', lengths, 1);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: The logout was accepted, but the audit trail .* could not record that: .* The trail holds its attempt with no outcome\. Note its outcome by hand \(done, status 200[^)]*\); a logout can safely be sent again\. Free some disk space \(or raise the limit\)\./m);
    consistent(run.stderr);
  });
});

describe('a full disk during a batch', () => {
  it('outcomes that rode along with a group the trail could not take: the run stops, exit 4, and the gap is said with where the outcomes are', async () => {
    const uids = ['batch-a', 'batch-b', 'batch-c', 'batch-d', 'batch-e'];
    for (const uid of uids) await createUser(uid);
    const list = join(workDir, 'uids.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(list, `${uids.join('\n')}\n`);
    const dataDir = mkdtempSync(join(workDir, 'batch-'));
    // Room for the first item's attempt and the second group (its outcome, the next attempt), not the third.
    const limitKiB = await prefill(dataDir, 1500);
    const run = await runCli(dataDir, ['batch', 'delete', list, '--yes', 'DELETE 5', '--concurrency', '1', '--no-logout-first'], limitKiB);
    expect(run.code, run.stderr).toBe(4);
    expect(run.stderr).toMatch(/^AUDIT_WRITE_FAILED: Batch job \S+ stopped: The audit trail .* could not be written: the audit file reached the largest size this process may write \(a file size limit\)\. Free some disk space \(or raise the limit\), then try again\./m);
    expect(run.stderr).toMatch(/^1 outcome of an item already sent, and the run’s summary, could not be written to the audit trail: the job’s journal and results have them, the audit trail does not, and this command ends now, so they are not written later\. Note that outcome by hand from the results \(privacy-desk batch results \S+\); "privacy-desk audit list" shows that item as "outcome not recorded"\.$/m);
    consistent(run.stderr);
  });
});
