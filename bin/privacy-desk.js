#!/usr/bin/env node
// The installed `privacy-desk` command: runs the CLI bundle that `npm run build` (scripts/build-cli.mjs) makes.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(bundle)) {
  await import(bundle.href);
} else {
  const projectRoot = fileURLToPath(new URL('..', import.meta.url));
  process.stderr.write(`privacy-desk is not built yet: run "npm run build:cli" (or "npm run build") in ${projectRoot}, then try again.\n`);
  process.exitCode = 1;
}
