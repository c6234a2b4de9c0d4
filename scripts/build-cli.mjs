#!/usr/bin/env node
// Bundles the CLI into one ES module, dist/cli/main.js (`npm run build:cli`), so `privacy-desk`
// starts plain JavaScript instead of compiling TypeScript at every start.
//   --if-stale   build only when the bundle is missing or older than one of its inputs
//                (what `npm run cli` does before running it); prints nothing on stdout.
//   --outdir D   build elsewhere (the installed bin always runs dist/cli/main.js).
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { outdir: { type: 'string' }, 'if-stale': { type: 'boolean' } } });
const outdir = values.outdir ? resolve(values.outdir) : join(root, 'dist', 'cli');
const bundlePath = join(outdir, 'main.js');
// The files the last build read (from esbuild's metafile), to tell whether it is stale.
const inputsPath = join(outdir, 'inputs.json');

async function main() {
  if (values['if-stale'] && !isStale()) return;
  const started = Date.now();
  // Loaded only when building, so the staleness check stays quick.
  const { build } = await import('esbuild');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'cli/main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // keytar is native: it stays outside the bundle and is loaded only when the keychain is opened.
    // pdfkit reads its fonts from its own package at run time: it stays outside, loaded only for a receipt.
    // date-holidays (the register's clock) is loaded only when a deadline is computed: outside, it costs no start-up.
    external: ['keytar', 'pdfkit', 'date-holidays', 'pg-native'],
    // Bundled CommonJS packages (commander…) require Node built-ins; an ES module has no `require` of its own.
    banner: { js: "import { createRequire as createRequireForBundle } from 'node:module';\nconst require = createRequireForBundle(import.meta.url);" },
    define: { PRIVACY_DESK_VERSION: JSON.stringify(version) },
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    write: false,
    outdir,
  });
  mkdirSync(outdir, { recursive: true });
  // Written whole then renamed, so a CLI started during a build never reads half a bundle.
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  const inputs = [...Object.keys(result.metafile.inputs), 'package.json', relative(root, fileURLToPath(import.meta.url))];
  writeAtomically(inputsPath, JSON.stringify({ inputs }, null, 2));
  const message = `Built ${relative(root, bundlePath)} (version ${version}) in ${Date.now() - started} ms`;
  // Under --if-stale stdout belongs to the CLI that runs next (`npm run cli -- … --json | jq`).
  if (values['if-stale']) console.error(message);
  else console.log(message);
}

function isStale() {
  let builtAt;
  let inputs;
  try {
    builtAt = Math.min(statSync(bundlePath).mtimeMs, statSync(inputsPath).mtimeMs);
    inputs = JSON.parse(readFileSync(inputsPath, 'utf8')).inputs;
  } catch {
    return true;
  }
  return inputs.some((input) => {
    try {
      return statSync(join(root, input)).mtimeMs > builtAt;
    } catch {
      return true; // an input is gone: the sources moved
    }
  });
}

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

main().catch((error) => {
  console.error(`CLI build failed: ${error.message}`);
  process.exit(1);
});
