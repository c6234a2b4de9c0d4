#!/usr/bin/env node
// `npm start`: builds the window and the Electron main process, makes sure Electron's
// binary is there (downloading it once with Electron's own installer), then runs the app.
// Where the binary cannot be had, it says so and points to `npm run web`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedElectronBinary } from './electron-binary.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOWNLOAD_TIMEOUT_MS = 60_000;

function run(label, args, options = {}) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`${label} failed${result.signal ? ` (${result.signal})` : ''}.`);
    process.exit(result.status || 1);
  }
}

/** The Electron executable's path, or null when its binary was never downloaded (asking never downloads). */
function electronBinary() {
  const found = installedElectronBinary(root);
  return 'path' in found ? found.path : null;
}

function downloadElectron() {
  const installer = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return false;
  console.log('Downloading Electron (first start only)…');
  // ELECTRON_SKIP_BINARY_DOWNLOAD would make the installer do nothing: the operator asked to start the app now.
  const env = { ...process.env };
  delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const result = spawnSync(process.execPath, [installer], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env, timeout: DOWNLOAD_TIMEOUT_MS, encoding: 'utf8' });
  return result.status === 0;
}

function main() {
  run('Building the window (vite build)', [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn']);
  run('Building the Electron main process', [join(root, 'scripts', 'build-electron.mjs')]);

  let binary = electronBinary();
  if (!binary && downloadElectron()) binary = electronBinary();
  if (!binary) {
    console.error(
      "Electron's binary could not be downloaded (no access to its download server).\n" +
        'Run `npm run web` to use Privacy Desk in your browser instead.',
    );
    process.exit(1);
  }

  const env = { ...process.env };
  delete env.ELECTRON_RUN_AS_NODE; // would start Electron as plain Node, without a window
  const child = spawn(binary, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  child.on('error', (error) => {
    console.error(`Could not start Electron: ${error.message}`);
    process.exit(1);
  });
}

main();
