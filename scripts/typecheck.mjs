#!/usr/bin/env node
// `npm run typecheck`: each runtime compiled with only its own globals (docs/ARCHITECTURE.md, Type checks per runtime).
// Every config runs even when an earlier one fails, so one run shows every error; incremental, so a second run is quick.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const CONFIGS = ['tsconfig.shared.json', 'tsconfig.renderer.json', 'tsconfig.node.json', 'tsconfig.browser-tests.json'];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const failed = CONFIGS.filter((config) => {
  const { status } = spawnSync(process.execPath, [tsc, '-p', config], { stdio: 'inherit' });
  if (status !== 0) console.error(`typecheck: ${config} has errors`);
  return status !== 0;
});
process.exitCode = failed.length > 0 ? 1 : 0;
