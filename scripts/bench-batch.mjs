#!/usr/bin/env node
// Batch erasure: memory and speed of `privacy-desk batch delete` on a large list.
// Part of `npm run bench` (scripts/bench.mjs calls benchBatch), or alone:
//   node scripts/bench-batch.mjs [--items 100000] [--rate-items 2000]
// 1. Memory: the built CLI erases every user of a sandbox of N users (no latency, no faults),
//    once with N/10 and once with N items, concurrency 16; its peak RSS (maxRSS, read in the CLI's
//    own process as it exits) should stay about the same: the input is streamed and no result is
//    held in memory.
// 2. Speed: items per second at concurrency 1 and 16 on the same kind of sandbox, and how many
//    items each durable journal write carried (the group commit: one write and one fsync for every
//    item that asked to start while the previous write was on its way).
// Not a test: figures depend on the machine. They go to docs/BENCHMARKS.md. Needs the build.
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startSandbox } from './bench-sandbox.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Runs both parts; `items` 0 skips the memory part, `rateItems` 0 the speed part. */
export async function benchBatch({ items = 100_000, rateItems = 2_000 } = {}) {
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('dist/cli/main.js is missing: run "npm run build" (or "npm run build:cli") first.');
  const work = mkdtempSync(join(tmpdir(), 'privacy-desk-bench-batch-'));
  try {
    const cpu = cpus();
    console.log(`\nBatch erasure: Node ${process.version}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadavg()[0].toFixed(2)} at the start.`);
    if (items > 0) await memory(work, items);
    if (rateItems > 0) await speed(work, rateItems);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function memory(work, items) {
  const sizes = [Math.max(1, Math.round(items / 10)), items];
  console.log('\nPeak memory of `privacy-desk batch delete FILE --concurrency 16` (the CLI process; sandbox without latency, in its own process).');
  console.log('| items | peak RSS MB | seconds | items/s | done | items per journal write |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const size of sizes) {
    const run = await runBatch(work, size, 16);
    console.log(`| ${size} | ${(run.maxRssKb / 1024).toFixed(0)} | ${run.seconds.toFixed(1)} | ${(size / run.seconds).toFixed(0)} | ${run.summary.counts.done} | ${run.perWrite.toFixed(1)} |`);
  }
}

async function speed(work, items) {
  console.log(`\nSpeed of ${items} items by concurrency (sandbox without latency; each run a new process, start-up included).`);
  console.log('| concurrency | seconds | items/s | journal writes | items per journal write |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const concurrency of [1, 4, 16]) {
    const run = await runBatch(work, items, concurrency);
    console.log(`| ${concurrency} | ${run.seconds.toFixed(1)} | ${(items / run.seconds).toFixed(0)} | ${run.writes} | ${run.perWrite.toFixed(1)} |`);
  }
}

/** A fresh sandbox of `size` users and a fresh data folder: the CLI deletes every one of them. */
async function runBatch(work, size, concurrency) {
  const uids = await seededUids(work, size);
  const dataDir = mkdtempSync(join(work, 'data-'));
  const file = join(work, `uids-${size}.txt`);
  writeFileSync(file, `${uids.join('\n')}\n`);
  const sandbox = await startSandbox(['--users', String(size)], 180_000);
  try {
    // Read in the CLI's own process as it exits: its peak resident set, whatever the platform.
    const probe = join(work, 'max-rss.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeSync(2, `\\nmaxRSS-kB ${process.resourceUsage().maxRSS}\\n`));\n");
    const env = { ...process.env, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', PRIVACY_DESK_API_KEY: sandbox.apiKey, PRIVACY_DESK_API_SECRET: sandbox.apiSecret };
    const args = ['--require', probe, 'bin/privacy-desk.js', 'batch', 'delete', file, '--yes', `DELETE ${size}`, '--concurrency', String(concurrency), '--json', '--base-url', sandbox.url, '--app', sandbox.applicationName];
    process.stderr.write(`batch delete of ${size} items, concurrency ${concurrency}…\n`);
    const started = process.hrtime.bigint();
    const { code, stdout, stderr } = await run(process.execPath, args, { cwd: root, env });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (code !== 0) throw new Error(`batch delete failed (exit ${code}): ${stderr.slice(-2000)}`);
    const summary = JSON.parse(stdout);
    if (summary.state !== 'finished' || summary.counts.done !== size) throw new Error(`batch delete did not erase every user: ${stdout}`);
    const maxRssKb = Number(/maxRSS-kB (\d+)/.exec(stderr)?.[1]);
    const { writes } = await journalWrites(dataDir);
    return { seconds, summary, maxRssKb, writes, perWrite: size / writes };
  } finally {
    sandbox.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Durable journal writes of a job: every write carries 'started' lines (and the outcomes buffered
 * since), so each run of 'started' lines is one write and one fsync; outcome-only flushes (a full
 * buffer, the end) are counted too.
 */
async function journalWrites(dataDir) {
  const batches = join(dataDir, 'batches');
  const [jobId] = readdirSync(batches);
  let writes = 0;
  let previous = '';
  let outcomesSinceStart = 0;
  const lines = createInterface({ input: createReadStream(join(batches, jobId, 'journal.jsonl')), crlfDelay: Infinity });
  for await (const line of lines) {
    const kind = line.includes('"kind":"started"') ? 'started' : 'outcome';
    if (kind === 'started' && previous !== 'started') writes += 1;
    if (kind === 'outcome') outcomesSinceStart += 1;
    if (kind === 'started') outcomesSinceStart = 0;
    previous = kind;
  }
  // Outcomes after the last start go out in flushes of 64 and a last one.
  writes += Math.ceil(outcomesSinceStart / 64);
  return { writes };
}

const uidCache = new Map();

/** The uids a sandbox seeds for `size` users (the same seed gives the same users): read once from a state file. */
async function seededUids(work, size) {
  if (uidCache.has(size)) return uidCache.get(size);
  const dataFile = join(work, `seed-${size}.json`);
  const sandbox = await startSandbox(['--users', String(size), '--data', dataFile], 180_000);
  sandbox.stop();
  const uids = JSON.parse(readFileSync(dataFile, 'utf8')).users.map((user) => user.record.uid).filter((uid) => typeof uid === 'string');
  rmSync(dataFile, { force: true });
  if (uids.length !== size) throw new Error(`The sandbox seeded ${uids.length} users with a uid, not ${size}.`);
  uidCache.set(size, uids);
  return uids;
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}


if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { items: { type: 'string', default: '100000' }, 'rate-items': { type: 'string', default: '2000' } } });
  benchBatch({ items: Number(values.items), rateItems: Number(values['rate-items']) }).catch((error) => {
    console.error(`bench-batch: ${error.message}`);
    process.exit(1);
  });
}
