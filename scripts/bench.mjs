#!/usr/bin/env node
// `npm run bench [-- options]`: the benchmark suite: how Privacy Desk compares with what people would use instead (raw fetch, a curl loop) and with its own goals. It builds nothing itself (`npm run bench`
// runs `npm run build` first), starts sandboxes in their own processes, and measures, interleaved round after round
// (scripts/bench/runner.mjs), the parts in scripts/bench/parts/. Each figure is a median, most of them ratios
// measured within one round, so that the machine's load falls on both sides alike. Writes bench/results.json and
// the table in docs/BENCHMARKS.md. Not a test: no figure passes or fails anything (`--tiny`, run by npm test,
// only proves that the suite still runs). `--help` lists the options.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMachine, loadAverage } from './bench/machine.mjs';
import { parseBenchArgs, sizeChanges, USAGE, UsageError } from './bench/options.mjs';
import { root } from './bench/paths.mjs';
import { resultsTable, writeDocs, writeResults } from './bench/report.mjs';
import { runParts } from './bench/runner.mjs';
import { sandboxPool } from './bench/sandbox-pool.mjs';
import { capacityPart } from './bench/parts/capacity.mjs';
import { corePart } from './bench/parts/core.mjs';
import { findPart } from './bench/parts/find.mjs';
import { memoryPart } from './bench/parts/memory.mjs';
import { pacePart } from './bench/parts/pace.mjs';
import { rendererPart } from './bench/parts/renderer.mjs';
import { startPart } from './bench/parts/start.mjs';
import { teamPart } from './bench/parts/team.mjs';
import { reconcilePart } from './bench/reconcile.mjs';

const PARTS = [startPart, corePart, capacityPart, pacePart, findPart, rendererPart, memoryPart, teamPart, reconcilePart];
const NEEDS = { 'dist/cli/main.js': 'the CLI bundle', 'dist/renderer/index.html': 'the renderer' };

async function main() {
  const options = parseBenchArgs(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  for (const [file, what] of Object.entries(NEEDS)) {
    if (!existsSync(join(root, file))) throw new Error(`${file} (${what}) is missing: run "npm run build" first.`);
  }
  const began = Date.now();
  const log = (text) => process.stderr.write(`[bench ${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${text}\n`);
  const work = mkdtempSync(join(tmpdir(), 'privacy-desk-bench-'));
  const sandboxes = sandboxPool(log);
  const loadStart = loadAverage();
  let measured;
  try {
    measured = await runParts(PARTS.filter((part) => options.parts.includes(part.name)), { options, sandboxes, work, log });
  } finally {
    await sandboxes.stopAll();
    rmSync(work, { recursive: true, force: true });
  }
  const table = resultsTable(measured, {
    date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    minutes: (Date.now() - began) / 60_000,
    reps: options.reps,
    warmUp: options.warmUp,
    loadStart,
    loadEnd: loadAverage(),
    machine: describeMachine(),
    notes: runNotes(options, measured.figures),
  });
  console.log(table);
  if (options.out) log(`figures written to ${writeResults(options.out, measured.figures)}`);
  if (options.docs) {
    writeDocs(table);
    log('table written to docs/BENCHMARKS.md');
  }
}

/** What a reader of the table needs to know about how this run differed from the plain one. */
function runNotes(options, figures) {
  const notes = [];
  if (options.tiny) notes.push('a --tiny run (a few items of everything): its figures mean nothing');
  else if (sizeChanges(options).length > 0) notes.push(`run with ${sizeChanges(options).join(', ')} (the figures' names keep the full sizes)`);
  if (options.parts.length < PARTS.length) notes.push(`parts: ${options.parts.join(', ')}`);
  if (options.parts.includes('pace')) {
    notes.push(options.paceSerial ? 'pace runs one at a time' : 'pace: the 30/s runs side by side, the 100/s ones one after another beside them, each on its own sandbox');
    if (!Object.keys(figures).some((key) => key.startsWith('pace') && key.includes('Fixed'))) notes.push('no fixed-window runs: the sandbox has no `rateLimitWindow` fault yet');
  }
  return notes;
}

main().catch((error) => {
  console.error(`bench: ${error instanceof UsageError ? error.message : (error.stack ?? error.message)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
