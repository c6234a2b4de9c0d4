import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { CredentialStore } from '../credential-store';
import { writeFileAtomic } from './atomic-file';
import { openKeyring, registerKeyFromText, type RegisterKeyring, type RegisterKeyStorage, type WrappedDataKey } from './register-keyring';

export type { RegisterKeyring } from './register-keyring';

/**
 * The local register's keys (how values are sealed: core/requests/register-keyring.ts): the data keys wrapped in
 * requests-keys.json; the register's key in the OS keychain (account 'request-register-key:<data folder>'), or,
 * without one, in this session's memory.
 */
export const KEYS_FILE_NAME = 'requests-keys.json';

const keysFileSchema = z.object({
  format: z.literal(1),
  keys: z.record(z.string(), z.object({ keyId: z.string().regex(/^[0-9a-f]{16}$/), wrapped: z.string() })),
});
type KeysFile = z.infer<typeof keysFileSchema>;

export function registerKeyAccount(dataDir: string): string {
  let path = resolve(dataDir);
  try {
    path = realpathSync(path);
  } catch {
    // A folder not created yet keeps its resolved path.
  }
  return `request-register-key:${path}`;
}

/** The data folder's key storage; `store` is opened on first use, so reading a register without personal data never touches the keychain. */
export function localKeyStorage(dataDir: string, store: () => Promise<CredentialStore>): RegisterKeyStorage & { readAll(): Promise<Record<string, WrappedDataKey>> } {
  const path = join(dataDir, KEYS_FILE_NAME);
  return {
    async registerKey(create) {
      const keychain = await store();
      const account = registerKeyAccount(dataDir);
      const kept = registerKeyFromText(await keychain.getRecord(account));
      if (kept || !create) return kept;
      const made = randomBytes(32);
      await keychain.setRecord(account, made.toString('base64'));
      return made;
    },
    dataKey: async (requestId) => (await readKeys(path)).keys[requestId],
    async saveDataKey(requestId, key) {
      const file = await readKeys(path);
      file.keys[requestId] = key;
      await writeKeys(path, file);
    },
    async deleteDataKey(requestId) {
      const file = await readKeys(path);
      if (!(requestId in file.keys)) return;
      delete file.keys[requestId];
      await writeKeys(path, file);
    },
    readAll: async () => (await readKeys(path)).keys,
  };
}

export function openRegisterKeyring(dataDir: string, store: () => Promise<CredentialStore>): RegisterKeyring {
  return openKeyring(localKeyStorage(dataDir, store));
}

async function readKeys(path: string): Promise<KeysFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, keys: {} };
    throw error;
  }
  let parsed: ReturnType<typeof keysFileSchema.safeParse>;
  try {
    parsed = keysFileSchema.safeParse(JSON.parse(text));
  } catch {
    throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('requests.keysDamaged', { path, problem: 'not JSON' }) });
  }
  if (!parsed.success) throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('requests.keysDamaged', { path, problem: 'unknown shape' }) });
  return parsed.data;
}

const writeKeys = (path: string, file: KeysFile): Promise<void> => writeFileAtomic(path, `${JSON.stringify(file)}\n`);
