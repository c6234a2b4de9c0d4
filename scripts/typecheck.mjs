#!/usr/bin/env node
// `npm run typecheck`: each runtime compiled with only its own globals (docs/ARCHITECTURE.md, Type checks per runtime).
// Every config runs even when another fails, so one run shows every error; two at a time (one per core here), each
// printing its errors once done so they never interleave; incremental, so a second run is quick.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';

const CONFIGS = ['tsconfig.node.json', 'tsconfig.renderer.json', 'tsconfig.browser-tests.json', 'tsconfig.shared.json'];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function check(config) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => {
      process.stdout.write(output);
      if (status !== 0) console.error(`typecheck: ${config} has errors`);
      resolve(status === 0);
    });
  });
}

const queue = [...CONFIGS];
const results = [];
const lanes = Array.from({ length: Math.min(Math.max(availableParallelism(), 1), 2) }, async () => {
  while (queue.length > 0) results.push(await check(queue.shift()));
});
await Promise.all(lanes);
process.exitCode = results.every(Boolean) ? 0 : 1;
