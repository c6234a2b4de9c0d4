import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { Sealed } from './register-events';

/**
 * The requester's name and contact, encrypted at rest with AES-256-GCM: a random 96-bit nonce per value, the request
 * id and the field as associated data (a value cannot be moved to another request or field unnoticed).
 *
 * Each request has a data key of its own, kept wrapped (AES-256-GCM again) by the register's key. Where the two are
 * kept is the storage's business (RegisterKeyStorage): the data folder and the OS keychain for the local register
 * (core/requests/register-crypto.ts), the team database for the team's (core/team/pg-register-keys.ts). Purging a
 * request deletes its data key: the sealed values stay in the append-only register, whose events the audit trail
 * vouches for, but nobody can read them again (crypto-shredding).
 */
const FORMAT = 'v1.';

export interface WrappedDataKey {
  /** Which register key wrapped it (keyIdOf): a key wrapped by another is not tried. */
  keyId: string;
  wrapped: string;
}

/** Where the register's key and the wrapped data keys are kept. */
export interface RegisterKeyStorage {
  /** The register's key (32 bytes); made and kept when `create` and there is none; null when there is none or it cannot be read. */
  registerKey(create: boolean): Promise<Buffer | null>;
  dataKey(requestId: string): Promise<WrappedDataKey | undefined>;
  saveDataKey(requestId: string, key: WrappedDataKey): Promise<void>;
  deleteDataKey(requestId: string): Promise<void>;
}

export interface RegisterKeyring {
  /** Seals a value for a request; a data key is made for the request on its first value (call under the register's lock). */
  seal(requestId: string, field: string, plain: string): Promise<Sealed>;
  /** The value, or null when it cannot be read here (another keychain, a session that ended, purged). */
  open(requestId: string, field: string, value: Sealed): Promise<string | null>;
  /** Deletes the request's data key for good (call under the register's lock). */
  shred(requestId: string): Promise<void>;
}

export function openKeyring(storage: RegisterKeyStorage): RegisterKeyring {
  let master: Buffer | undefined;
  const masterKey = async (create: boolean): Promise<Buffer | null> => {
    if (master) return master;
    const key = await storage.registerKey(create);
    if (key) master = key;
    return key;
  };

  const dataKey = async (requestId: string, create: boolean): Promise<Buffer | null> => {
    const key = await masterKey(create).catch((error: unknown) => {
      if (create) throw new PrivacyDeskError({ code: 'KEYCHAIN_UNAVAILABLE', outcome: 'not-sent', text: msg('requests.sealFailed') }, { cause: error });
      return null;
    });
    if (!key) return null;
    const found = await storage.dataKey(requestId);
    if (found && found.keyId === keyIdOf(key)) return unwrapDataKey(key, requestId, found);
    if (!create) return null;
    const made = randomBytes(32);
    await storage.saveDataKey(requestId, wrapDataKey(key, requestId, made));
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
    shred: (requestId) => storage.deleteDataKey(requestId),
  };
}

export const keyIdOf = (key: Buffer): string => createHmac('sha256', key).update('privacy-desk register key id').digest('hex').slice(0, 16);

/** A request's data key wrapped by the register's key (the request id as associated data). */
export function wrapDataKey(registerKey: Buffer, requestId: string, dataKey: Buffer): WrappedDataKey {
  return { keyId: keyIdOf(registerKey), wrapped: encrypt(registerKey, dataKey, `request-key\u0000${requestId}`) };
}

/** Null when it was not wrapped by this key for this request (or was altered). */
export function unwrapDataKey(registerKey: Buffer, requestId: string, found: WrappedDataKey): Buffer | null {
  return found.keyId === keyIdOf(registerKey) ? decrypt(registerKey, found.wrapped, `request-key\u0000${requestId}`) : null;
}

/** A register key as kept in text (base64 of 32 bytes), or null when the text is not one. */
export function registerKeyFromText(text: string | null | undefined): Buffer | null {
  return text && /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : null;
}

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
