#!/usr/bin/env node
// Bundles the Electron main process and the preload with esbuild (`npm run build:electron`).
// Works without the Electron binary: `electron` stays an external require, resolved by Electron at run time.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// --outdir lets tests build elsewhere; the app itself always uses dist/electron (package.json "main").
const { values } = parseArgs({ options: { outdir: { type: 'string' } } });
const outdir = values.outdir ? resolve(values.outdir) : join(root, 'dist', 'electron');
// Electron 45 ships Node 24 (its package pins @types/node 24) and Chromium 154 (43 shipped 150; +2 a major).
// Keep these in step with package.json's electron when moving to the next major.
const electronNodeTarget = 'node24';
const electronChromeTarget = 'chrome154';

const common = { bundle: true, format: 'cjs', sourcemap: true, logLevel: 'warning', legalComments: 'none', absWorkingDir: root };

async function main() {
  // Main process: everything bundled except Electron itself, keytar (a native module, unpacked from the asar)
  // and pdfkit (it reads its fonts from its own package at run time; a production dependency, so packaged).
  await build({
    ...common,
    entryPoints: [join(root, 'electron/main.ts')],
    outfile: join(outdir, 'main.cjs'),
    platform: 'node',
    target: electronNodeTarget,
    external: ['electron', 'keytar', 'pdfkit', 'date-holidays', 'pg-native'],
    // import('keytar') becomes require('keytar'): plain CommonJS loading works from inside the asar.
    supported: { 'dynamic-import': false },
  });

  // Sandboxed preload: no Node built-ins are available there, so bundle for the browser
  // (the build fails if one sneaks in) and leave only require('electron').
  await build({
    ...common,
    entryPoints: [join(root, 'electron/preload.ts')],
    outfile: join(outdir, 'preload.cjs'),
    platform: 'browser',
    target: electronChromeTarget,
    external: ['electron'],
  });

  const preload = readFileSync(join(outdir, 'preload.cjs'), 'utf8');
  const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
  if (requires.some((name) => name !== 'electron')) {
    throw new Error(`The preload must require only electron, but requires: ${requires.join(', ')}`);
  }
  console.log(`Built ${relative(root, join(outdir, 'main.cjs'))} and ${relative(root, join(outdir, 'preload.cjs'))}`);
}

main().catch((error) => {
  console.error(`Electron build failed: ${error.message}`);
  process.exit(1);
});
