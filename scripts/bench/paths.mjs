// Where the benchmark finds the project, whatever folder it is started from.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cliBin = join(root, 'bin', 'privacy-desk.js');
