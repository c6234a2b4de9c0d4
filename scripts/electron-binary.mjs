// Where Electron's binary is, read the way node_modules/electron/index.js reads it, but
// without its side effect: since Electron 45, require('electron') in plain Node starts a
// download when the binary is missing. `npm start` and the Electron smoke test only ask.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @param {string} root the project folder (holding node_modules/electron)
 * @returns {{ path: string } | { reason: string }}
 */
export function installedElectronBinary(root) {
  const packageDir = join(root, 'node_modules', 'electron');
  if (!existsSync(join(packageDir, 'package.json'))) return { reason: 'the electron package is not installed (npm ci installs it)' };
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { reason: 'the binary was never downloaded (node_modules/electron/path.txt is missing)' };
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDir, 'dist');
  const path = join(distDir, readFileSync(pathFile, 'utf8').trim());
  return existsSync(path) ? { path } : { reason: `${path} is missing` };
}
