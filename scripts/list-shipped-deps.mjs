#!/usr/bin/env node
// `npm run deps:shipped`: the production dependencies Privacy Desk ships (package.json
// "dependencies" and everything they pull in), with the exact versions package-lock.json
// resolves, one "name@version" a line. Where `npm audit --omit=dev` cannot reach the registry,
// this list (also in docs/SECURITY.md) lets the check be made elsewhere.
// --direct prints only the packages package.json names; --markdown prints a table for the docs.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { direct: { type: 'boolean' }, markdown: { type: 'boolean' } } });
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const direct = new Set(Object.keys(manifest.dependencies ?? {}));

/** Lock entries are keyed by install path ("node_modules/a/node_modules/b"): the package name is after the last node_modules/. */
const nameOf = (path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

const shipped = new Map();
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  if (!path || entry.dev || entry.devOptional || entry.link) continue; // the root, dev-only packages, workspace links
  const name = nameOf(path);
  if (values.direct && !(direct.has(name) && path === `node_modules/${name}`)) continue;
  const versions = shipped.get(name) ?? new Set();
  versions.add(entry.version);
  shipped.set(name, versions);
}

const rows = [...shipped.entries()].sort(([a], [b]) => a.localeCompare(b)).flatMap(([name, versions]) => [...versions].map((version) => ({ name, version })));
if (values.markdown) {
  console.log('| Package | Version |');
  console.log('|---|---|');
  for (const { name, version } of rows) console.log(`| ${name} | ${version} |`);
} else {
  for (const { name, version } of rows) console.log(`${name}@${version}`);
}
