#!/usr/bin/env node
// Bundles the Electron main process and the preload with esbuild (`npm run build:electron`).
// Works without the Electron binary: `electron` stays an external require, resolved by Electron at run time.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'electron');
const electronNodeTarget = 'node22'; // Electron 38 ships Node 22

const common = { bundle: true, format: 'cjs', sourcemap: true, logLevel: 'warning', legalComments: 'none', absWorkingDir: root };

async function main() {
  // Main process: everything bundled except Electron itself and keytar (a native module, unpacked from the asar).
  await build({
    ...common,
    entryPoints: [join(root, 'electron/main.ts')],
    outfile: join(outdir, 'main.cjs'),
    platform: 'node',
    target: electronNodeTarget,
    external: ['electron', 'keytar'],
  });

  // Sandboxed preload: no Node built-ins are available there, so bundle for the browser
  // (the build fails if one sneaks in) and leave only require('electron').
  await build({
    ...common,
    entryPoints: [join(root, 'electron/preload.ts')],
    outfile: join(outdir, 'preload.cjs'),
    platform: 'browser',
    target: 'chrome140',
    external: ['electron'],
  });

  const preload = readFileSync(join(outdir, 'preload.cjs'), 'utf8');
  const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
  if (requires.some((name) => name !== 'electron')) {
    throw new Error(`The preload must require only electron, but requires: ${requires.join(', ')}`);
  }
  console.log(`Built ${join('dist', 'electron', 'main.cjs')} and ${join('dist', 'electron', 'preload.cjs')}`);
}

main().catch((error) => {
  console.error(`Electron build failed: ${error.message}`);
  process.exit(1);
});
