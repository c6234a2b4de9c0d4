#!/usr/bin/env node
// `npm run bench [-- --runs N] [--find-runs N] [--batch-items N] [--batch-rate-items N]`: how fast the built CLI
// starts, next to a bare `node -e 0`, then how long `users find` takes to walk and search 100,000 users,
// then the peak memory and the speed of a batch erasure of 100,000 uids (scripts/bench-batch.mjs;
// --batch-items 0 and --batch-rate-items 0 skip its parts).
// Every command runs N times (default 15), round-robin so the machine's load falls on all of them
// alike; the table gives each one's median and its ratio to bare Node, measured in this same run.
// Not a test: timings depend on the machine, so nothing here passes or fails. The figures go to
// docs/BENCHMARKS.md. Needs the build (`npm run build`, or `npm run build:cli`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandbox } from './bench-sandbox.mjs';
import { benchBatch } from './bench-batch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    'find-runs': { type: 'string', default: '3' },
    'batch-items': { type: 'string', default: '100000' },
    'batch-rate-items': { type: 'string', default: '2000' },
  },
});
const runs = Number(values.runs);
const GOAL_RATIO = 3;

async function main() {
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of 1 or more (got "${values.runs}").`);
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('dist/cli/main.js is missing: run "npm run build" (or "npm run build:cli") first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-bench-'));
  const sandbox = await startSandbox(['--users', '100']);
  try {
    const env = {
      ...process.env,
      PRIVACY_DESK_DATA_DIR: dataDir,
      PRIVACY_DESK_CREDENTIAL_STORE: 'session',
      PRIVACY_DESK_API_KEY: sandbox.apiKey,
      PRIVACY_DESK_API_SECRET: sandbox.apiSecret,
    };
    const connection = ['--base-url', sandbox.url, '--app', sandbox.applicationName];
    const node = process.execPath;
    const cases = [
      { label: 'node -e 0 (bare Node, the baseline)', command: node, args: ['-e', '0'] },
      { label: 'privacy-desk --version', command: node, args: ['bin/privacy-desk.js', '--version'] },
      { label: 'privacy-desk users list --json (one page of 10 from the sandbox)', command: node, args: ['bin/privacy-desk.js', 'users', 'list', '--json', ...connection] },
      { label: 'privacy-desk --help', command: node, args: ['bin/privacy-desk.js', '--help'] },
      { label: 'before the build: TypeScript through tsx, --version', command: node, args: ['--import', 'tsx', 'cli/main.ts', '--version'] },
      { label: 'npx privacy-desk --version (npm’s own start included)', command: 'npx', args: ['privacy-desk', '--version'] },
      { label: 'npm run --silent cli -- --version (npm, plus the staleness check)', command: 'npm', args: ['run', '--silent', 'cli', '--', '--version'] },
    ];
    const before = loadavg()[0];
    for (const entry of cases) runOnce(entry, env); // warm the file cache, and fail early if one does not work
    const times = cases.map(() => []);
    for (let round = 1; round <= runs; round += 1) {
      process.stderr.write(`\rround ${round} of ${runs}`);
      cases.forEach((entry, i) => times[i].push(runOnce(entry, env)));
    }
    process.stderr.write('\n');
    printReport(cases, times, { before, after: loadavg()[0] });
  } finally {
    sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await benchFindPerson();
  await benchBatchErasure();
}

/** Batch erasure: peak RSS on 100,000 uids, and items per second by concurrency (scripts/bench-batch.mjs). */
async function benchBatchErasure() {
  const items = Number(values['batch-items']);
  const rateItems = Number(values['batch-rate-items']);
  for (const [name, value] of [['--batch-items', items], ['--batch-rate-items', rateItems]]) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of 0 or more (got "${values[name.slice(2)]}").`);
  }
  await benchBatch({ items, rateItems });
}

const FIND_USERS = 100_000;

/**
 * Find a person on any page: `users find` against a sandbox of 100,000 users walks
 * every page (100 a page, a few at once) and searches them. Each run is a new process, so each
 * time is the walk plus the first search.
 */
async function benchFindPerson() {
  const findRuns = Number(values['find-runs']);
  if (!Number.isInteger(findRuns) || findRuns < 1) throw new Error(`--find-runs must be a whole number of 1 or more (got "${values['find-runs']}").`);
  const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-bench-find-'));
  process.stderr.write(`seeding a sandbox of ${FIND_USERS} users…\n`);
  const seedStarted = process.hrtime.bigint();
  const sandbox = await startSandbox(['--users', String(FIND_USERS)], 180_000);
  const seedMs = Number(process.hrtime.bigint() - seedStarted) / 1e6;
  try {
    const env = { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', PRIVACY_DESK_API_KEY: sandbox.apiKey, PRIVACY_DESK_API_SECRET: sandbox.apiSecret };
    const args = ['bin/privacy-desk.js', 'users', 'find', 'emilie', '--json', '--base-url', sandbox.url, '--app', sandbox.applicationName];
    const times = [];
    let facts;
    for (let run = 1; run <= findRuns; run += 1) {
      process.stderr.write(`\rfind run ${run} of ${findRuns}`);
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if (result.status !== 0) throw new Error(`users find failed (exit ${result.status ?? result.signal}): ${result.stderr}`);
      facts = JSON.parse(result.stdout);
    }
    process.stderr.write('\n');
    if (facts.usersSearched !== FIND_USERS) throw new Error(`users find searched ${facts.usersSearched} users, not ${FIND_USERS}.`);
    const s = (ms) => (ms / 1000).toFixed(1);
    console.log(`\nFind a person: privacy-desk users find emilie --json against ${FIND_USERS} users (${facts.pagesWalked} pages of 100; seeding the sandbox took ${s(seedMs)} s, not counted).`);
    console.log('| runs | median s | min s | max s | matches |');
    console.log('| ---: | ---: | ---: | ---: | ---: |');
    console.log(`| ${findRuns} | ${s(median(times))} | ${s(Math.min(...times))} | ${s(Math.max(...times))} | ${facts.total} |`);
  } finally {
    sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs one command to its end and returns its wall time in milliseconds. */
function runOnce({ label, command, args }, env) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`"${label}" failed (exit ${result.status ?? result.signal}): ${result.stderr || result.error?.message}`);
  return elapsed;
}


function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function printReport(cases, times, load) {
  const medians = times.map(median);
  const baseline = medians[0];
  const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' }).stdout.trim();
  const cpu = cpus();
  console.log(`Node ${process.version}, npm ${npmVersion}, ${platform()} ${release()}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}`);
  console.log(`${runs} runs of each, round-robin; load average ${load.before.toFixed(2)} at the start, ${load.after.toFixed(2)} at the end.\n`);
  console.log('| command | median ms | min ms | max ms | × bare Node |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  cases.forEach((entry, i) => {
    const ms = (value) => value.toFixed(0);
    console.log(`| ${entry.label} | ${ms(medians[i])} | ${ms(Math.min(...times[i]))} | ${ms(Math.max(...times[i]))} | ${(medians[i] / baseline).toFixed(2)} |`);
  });
  const ratio = medians[1] / baseline;
  console.log(`\nGoal: privacy-desk --version within ${GOAL_RATIO}× of bare Node — ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'} in this run (${ratio.toFixed(2)}×).`);
}

main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exit(1);
});
