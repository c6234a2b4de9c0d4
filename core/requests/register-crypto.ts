import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { CredentialStore } from '../credential-store';
import { writeFileAtomic } from './atomic-file';
import type { Sealed } from './register-events';

/**
 * The requester's name and contact, encrypted at rest with AES-256-GCM: a random 96-bit nonce per value, the request
 * id and the field as associated data (a value cannot be moved to another request or field unnoticed).
 *
 * Each request has a data key of its own, kept wrapped (AES-256-GCM again) by the register's key in
 * requests-keys.json; the register's key lives in the OS keychain (account 'request-register-key:<data folder>'), or,
 * without one, in this session's memory. Purging a request deletes its data key: the sealed values stay in the
 * append-only register, whose lines the audit trail vouches for, but nobody can read them again (crypto-shredding).
 */
export const KEYS_FILE_NAME = 'requests-keys.json';
const FORMAT = 'v1.';

const keysFileSchema = z.object({
  format: z.literal(1),
  keys: z.record(z.string(), z.object({ keyId: z.string().regex(/^[0-9a-f]{16}$/), wrapped: z.string() })),
});
type KeysFile = z.infer<typeof keysFileSchema>;

export interface RegisterKeyring {
  /** Seals a value for a request; a data key is made for the request on its first value (call under the register's lock). */
  seal(requestId: string, field: string, plain: string): Promise<Sealed>;
  /** The value, or null when this computer cannot read it (another keychain, a session that ended, purged). */
  open(requestId: string, field: string, value: Sealed): Promise<string | null>;
  /** Deletes the request's data key for good (call under the register's lock). */
  shred(requestId: string): Promise<void>;
}

export function registerKeyAccount(dataDir: string): string {
  let path = resolve(dataDir);
  try {
    path = realpathSync(path);
  } catch {
    // A folder not created yet keeps its resolved path.
  }
  return `request-register-key:${path}`;
}

/** `store` is opened on first use, so reading a register without personal data never touches the keychain. */
export function openRegisterKeyring(dataDir: string, store: () => Promise<CredentialStore>): RegisterKeyring {
  const path = join(dataDir, KEYS_FILE_NAME);
  let master: Promise<Buffer> | undefined;
  const masterKey = (create: boolean): Promise<Buffer | null> => {
    if (master) return master;
    const loading = (async () => {
      const keychain = await store();
      const account = registerKeyAccount(dataDir);
      const kept = await keychain.getRecord(account);
      if (kept && /^[A-Za-z0-9+/]{43}=$/.test(kept)) return Buffer.from(kept, 'base64');
      if (!create) return null;
      const made = randomBytes(32);
      await keychain.setRecord(account, made.toString('base64'));
      return made;
    })();
    return loading.then((key) => {
      if (key) master = Promise.resolve(key);
      return key;
    });
  };

  const dataKey = async (requestId: string, create: boolean): Promise<Buffer | null> => {
    const key = await masterKey(create).catch((error: unknown) => {
      if (create) throw new PrivacyDeskError({ code: 'KEYCHAIN_UNAVAILABLE', outcome: 'not-sent', text: msg('requests.sealFailed') }, { cause: error });
      return null;
    });
    if (!key) return null;
    const file = await readKeys(path);
    const found = file.keys[requestId];
    if (found && found.keyId === keyIdOf(key)) return decrypt(key, found.wrapped, `request-key\u0000${requestId}`);
    if (!create) return null;
    const made = randomBytes(32);
    file.keys[requestId] = { keyId: keyIdOf(key), wrapped: encrypt(key, made, `request-key\u0000${requestId}`) };
    await writeKeys(path, file);
    return made;
  };

  return {
    async seal(requestId, field, plain) {
      const key = (await dataKey(requestId, true)) as Buffer;
      return { sealed: FORMAT + encrypt(key, Buffer.from(plain, 'utf8'), `${requestId}\u0000${field}`) };
    },
    async open(requestId, field, value) {
      const key = await dataKey(requestId, false);
      const plain = key && decrypt(key, value.sealed.slice(FORMAT.length), `${requestId}\u0000${field}`);
      return plain ? plain.toString('utf8') : null;
    },
    async shred(requestId) {
      const file = await readKeys(path);
      if (!(requestId in file.keys)) return;
      delete file.keys[requestId];
      await writeKeys(path, file);
    },
  };
}

const keyIdOf = (key: Buffer): string => createHmac('sha256', key).update('privacy-desk register key id').digest('hex').slice(0, 16);

function encrypt(key: Buffer, plain: Buffer, associated: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associated, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
}

/** Null when the value was not sealed with this key for this place (or was altered). */
function decrypt(key: Buffer, encoded: string, associated: string): Buffer | null {
  const raw = Buffer.from(encoded, 'base64');
  if (raw.length < 12 + 16) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(associated, 'utf8'));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
  } catch {
    return null;
  }
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
