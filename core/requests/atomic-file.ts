import { randomBytes } from 'node:crypto';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Whole or not at all: a temporary file fsynced, renamed over the old one, and the folder fsynced. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
  const folder = await open(dirname(path), 'r').catch(() => null);
  await folder?.sync().catch(() => undefined);
  await folder?.close();
}
