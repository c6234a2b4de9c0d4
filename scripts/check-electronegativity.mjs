#!/usr/bin/env node
// `npm run check:electron`: Electronegativity over the code that runs in Electron (electron/, the
// renderer it loads, and shared/ which both import, e.g. the CSP in shared/security-headers.ts).
// Electronegativity reports but always exits 0, so this script fails on any finding that
// security/electronegativity-exceptions.json does not list with a reason, and on any listed
// exception that no longer matches a finding (stale), and on any file it could not parse.
//
// Sources, not dist/: npm test runs this before the build, findings then name real files and
// lines, and the bundles would add React's own code. The three folders are copied (tests left
// out) into one temporary tree so the global checks (navigation limits, permission handler, CSP)
// see the whole app at once, next to package.json so the Electron version is the one we pin.
// Offline: Electronegativity fetches translations and Electron's release list over HTTP; the
// fetch library is replaced by one that fails at once (bundled en-US strings are used) and the
// release-list check is left out (the pinned version is checked in docs/SECURITY.md instead).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED_FOLDERS = ['electron', 'renderer', 'shared'];
// --exceptions lets tests/security/electronegativity-check.test.ts prove the check fails.
const { values: cliOptions } = parseArgs({ options: { exceptions: { type: 'string' } } });
const EXCEPTIONS_FILE = cliOptions.exceptions ?? 'security/electronegativity-exceptions.json';
/** Needs Electron's release list from GitHub: not answerable offline. */
const NETWORK_CHECKS = ['AvailableSecurityFixesGlobalCheck'];

const isTestFile = (path) => /\.test\.[cm]?[jt]sx?$|\.harness\.[cm]?js$|[\\/]__[a-z_]+__[\\/]?/.test(path);

function loadElectronegativityOffline() {
  const require = createRequire(join(root, 'package.json'));
  const packageDir = dirname(require.resolve('@doyensec/electronegativity/package.json'));
  const gotPath = createRequire(join(packageDir, 'package.json')).resolve('got');
  const offline = async () => {
    throw new Error('offline: check-electronegativity makes no network requests');
  };
  offline.default = offline;
  require.cache[gotPath] = { id: gotPath, filename: gotPath, loaded: true, exports: offline };
  return require('@doyensec/electronegativity');
}

function readExceptions() {
  const parsed = JSON.parse(readFileSync(resolve(root, EXCEPTIONS_FILE), 'utf8'));
  for (const entry of parsed.exceptions) {
    if (typeof entry.id !== 'string' || typeof entry.file !== 'string' || typeof entry.reason !== 'string' || !entry.reason.trim() || entry.reason.includes('\n')) {
      throw new Error(`${EXCEPTIONS_FILE}: every exception needs an id, a file and a one-line reason: ${JSON.stringify(entry)}`);
    }
  }
  return parsed.exceptions;
}

async function scan() {
  const tree = mkdtempSync(join(tmpdir(), 'privacy-desk-electronegativity-'));
  try {
    for (const folder of SCANNED_FOLDERS) {
      cpSync(join(root, folder), join(tree, folder), { recursive: true, filter: (source) => !isTestFile(source) });
    }
    cpSync(join(root, 'package.json'), join(tree, 'package.json'));
    const electronVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).devDependencies.electron;
    const run = loadElectronegativityOffline();
    // Its progress lines (and the failed translation fetch) go to console.log: keep the output to our verdict.
    const log = console.log;
    console.log = () => {};
    try {
      const result = await run({ input: tree, isRelative: true, electronVersionOverride: electronVersion, excludeFromScan: NETWORK_CHECKS });
      return { ...result, electronVersion };
    } finally {
      console.log = log;
    }
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

const key = (entry) => `${entry.id} ${entry.file}`;

async function main() {
  const started = Date.now();
  const exceptions = readExceptions();
  const { issues, errors, electronVersion } = await scan();
  const findings = issues.map((issue) => ({
    id: issue.id,
    file: issue.file.split('\\').join('/'),
    line: issue.location.line,
    column: issue.location.column,
    severity: issue.severity.name,
    confidence: issue.confidence.name,
    description: issue.description,
  }));
  const report = join(mkdtempSync(join(tmpdir(), 'privacy-desk-electronegativity-report-')), 'findings.json');
  writeFileSync(report, JSON.stringify({ electronVersion, findings, errors }, null, 2));

  const listed = new Set(exceptions.map(key));
  const found = new Set(findings.map(key));
  const unlisted = findings.filter((finding) => !listed.has(key(finding)));
  const stale = exceptions.filter((exception) => !found.has(key(exception)));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  for (const error of errors) console.error(`Not scanned (parse error): ${error.file}: ${error.message}`);
  for (const finding of unlisted) {
    console.error(`Unlisted finding: ${finding.id} in ${finding.file}:${finding.line}:${finding.column} (${finding.severity}, ${finding.confidence}): ${finding.description}`);
  }
  for (const exception of stale) console.error(`Stale exception (no such finding any more, remove it): ${exception.id} in ${exception.file}`);
  if (errors.length || unlisted.length || stale.length) {
    console.error(`Electronegativity: fix the code, or list the finding in ${EXCEPTIONS_FILE} with a one-line reason. All findings: ${report}`);
    process.exit(1);
  }
  rmSync(dirname(report), { recursive: true, force: true });
  console.log(`Electronegativity (Electron ${electronVersion}, ${SCANNED_FOLDERS.join('/, ')}/): ${findings.length} findings, all listed in ${basename(EXCEPTIONS_FILE)} (${seconds} s).`);
}

main().catch((error) => {
  console.error(`Electronegativity check failed to run: ${error.stack ?? error.message}`);
  process.exit(1);
});
