import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PrivacyDeskError } from '../shared/errors';
import { credentialsSchema, type Credentials } from '../shared/profile';
import { createSessionCredentialStore, type CredentialStore } from './credential-store';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';

/** One keychain entry: the key, the secret and the origin they were entered for (absent in older entries). */
const keychainEntrySchema = credentialsSchema.extend({ origin: z.string().min(1).optional() });

/** The only file that imports keytar: swapping the keychain backend touches nothing else. */
export const KEYCHAIN_SERVICE = 'privacy-desk';
/** The probe's entry, this process's own: two processes starting at once (the app and a CLI command) each read back what they wrote. */
export const PROBE_ACCOUNT_PREFIX = '__privacy-desk-probe__';

type Keytar = Pick<typeof import('keytar'), 'getPassword' | 'setPassword' | 'deletePassword'>;

export interface KeytarStoreOptions {
  /** Test hook: how keytar is loaded. */
  loadKeytar?: () => Promise<Keytar>;
  service?: string;
  /** How long the probe may take before the keychain counts as unavailable (a locked keyring may wait on a prompt). */
  probeTimeoutMs?: number;
  platform?: NodeJS.Platform;
}

async function loadRealKeytar(): Promise<Keytar> {
  const mod = (await import('keytar')) as Keytar & { default?: Keytar };
  return oneCallAtATime(mod.default ?? mod);
}

/** The calls to the real keytar in this process, one after another. */
let keytarQueue: Promise<unknown> = Promise.resolve();

/**
 * keytar runs each call on a thread of its own, and libsecret is not made for calls from several threads of one
 * process at once: six stores opened together (probes overlapping) once ended the whole process. Every keychain of
 * this process shares one queue; a call waits for the one before it, whatever that one's outcome.
 */
function oneCallAtATime(keytar: Keytar): Keytar {
  const queued = <T,>(call: () => Promise<T>): Promise<T> => {
    const result = keytarQueue.then(call, call);
    keytarQueue = result.catch(() => undefined);
    return result;
  };
  return {
    getPassword: (service, account) => queued(() => keytar.getPassword(service, account)),
    setPassword: (service, account, password) => queued(() => keytar.setPassword(service, account, password)),
    deletePassword: (service, account) => queued(() => keytar.deletePassword(service, account)),
  };
}

/**
 * Opens the OS keychain and proves it works with a write, read and delete of a
 * probe entry: a locked keyring often lists fine but refuses to store.
 */
export async function openKeytarCredentialStore(options: KeytarStoreOptions = {}): Promise<{ store: CredentialStore } | { problem: string }> {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const platform = options.platform ?? process.platform;
  let keytar: Keytar;
  try {
    keytar = await (options.loadKeytar ?? loadRealKeytar)();
  } catch (error) {
    return {
      problem:
        `The keychain module (keytar) could not be loaded (${shortMessage(error)}). Rebuild it with "npm rebuild keytar"` +
        (platform === 'linux' ? ' (on Linux it needs libsecret-1-dev: sudo apt-get install libsecret-1-dev).' : '.'),
    };
  }
  try {
    await withTimeout(
      (async () => {
        const probe = `${PROBE_ACCOUNT_PREFIX}:${process.pid}:${randomUUID()}`;
        await keytar.setPassword(service, probe, 'probe');
        if ((await keytar.getPassword(service, probe)) !== 'probe') throw new Error('the keychain did not return what was stored');
        await keytar.deletePassword(service, probe);
      })(),
      options.probeTimeoutMs ?? 15_000,
    );
  } catch (error) {
    return { problem: describeKeychainFailure(error, platform) };
  }

  const fail = (error: unknown): never => {
    throw new PrivacyDeskError({ code: 'KEYCHAIN_UNAVAILABLE', text: keychainFailureText(error, platform), quote: { from: 'system', text: shortMessage(error) } }, { cause: error });
  };
  const store: CredentialStore = {
    kind: 'keychain',
    async get(profileId) {
      const stored = await keytar.getPassword(service, profileId).catch(fail);
      if (stored === null) return null;
      try {
        const parsed = keychainEntrySchema.safeParse(JSON.parse(stored));
        return parsed.success ? parsed.data : null; // an entry we cannot read counts as missing: the operator re-enters it
      } catch {
        return null;
      }
    },
    async set(profileId, credentials: Credentials, origin: string) {
      const value = JSON.stringify({ apiKey: credentials.apiKey, apiSecret: credentials.apiSecret, origin });
      await keytar.setPassword(service, profileId, value).catch(fail);
    },
    async delete(profileId) {
      await keytar.deletePassword(service, profileId).catch(fail);
    },
    async getRecord(account) {
      return keytar.getPassword(service, account).catch(fail);
    },
    async setRecord(account, value) {
      await keytar.setPassword(service, account, value).catch(fail);
    },
    async deleteRecord(account) {
      await keytar.deletePassword(service, account).catch(fail);
    },
  };
  return { store };
}

/** The keychain when it works; otherwise memory for this session, with the reason. Never a file. */
export async function openCredentialStore(
  options: KeytarStoreOptions & { env?: NodeJS.ProcessEnv } = {},
): Promise<{ store: CredentialStore; problem?: string }> {
  const env = options.env ?? process.env;
  if (env.PRIVACY_DESK_CREDENTIAL_STORE === 'session') {
    return { store: createSessionCredentialStore(), problem: 'PRIVACY_DESK_CREDENTIAL_STORE=session: the OS keychain is not used; credentials are kept for this session only.' };
  }
  const opened = await openKeytarCredentialStore(options);
  if ('store' in opened) return { store: opened.store };
  return { store: createSessionCredentialStore(), problem: opened.problem };
}

type KeychainFailure = 'timeout' | 'noDbus' | 'noProvider' | 'locked' | 'other';

/** Which failure it is, from the system's own message (libsecret/D-Bus; it never contains a secret). */
function keychainFailure(error: unknown, platform: NodeJS.Platform): KeychainFailure {
  const message = shortMessage(error);
  if (error instanceof TimeoutError) return 'timeout';
  if (platform === 'linux') {
    if (/autolaunch|\$DISPLAY|could not connect|failed to connect|dbus_session_bus_address|no such file/i.test(message)) return 'noDbus';
    if (/org\.freedesktop\.secrets|serviceunknown|not provided by any|name has no owner/i.test(message)) return 'noProvider';
    if (/locked|prompt|dismiss|cancel|collection|unlock/i.test(message)) return 'locked';
  }
  return 'other';
}

/** Says which failure it is and what to do, in the window's language (shared/messages/local.ts keychain.*); the system's message is quoted apart. */
function keychainFailureText(error: unknown, platform: NodeJS.Platform): MessageText {
  const kind = keychainFailure(error, platform);
  return kind === 'timeout' ? msg('keychain.timeout', { seconds: (error as TimeoutError).ms / 1000 }) : msg(`keychain.${kind}`);
}

/** The same in English with the system's message inside, as the app shows the keychain problem and the CLI prints it. */
export function describeKeychainFailure(error: unknown, platform: NodeJS.Platform = process.platform): string {
  const message = shortMessage(error);
  const tail = ' Until then, credentials are kept in memory for this session only.';
  switch (keychainFailure(error, platform)) {
    case 'timeout':
      return `The OS keychain did not answer within ${(error as TimeoutError).ms / 1000} s (it may be locked and waiting for a password prompt). Unlock your keyring and restart Privacy Desk.${tail}`;
    case 'noDbus':
      return `No D-Bus session is reachable, so the Secret Service keychain cannot be used (${message}). Run Privacy Desk inside your desktop session (or under dbus-run-session) with a Secret Service provider: install and start gnome-keyring (sudo apt-get install gnome-keyring) or another provider such as KeePassXC.${tail}`;
    case 'noProvider':
      return `No Secret Service provider answers on D-Bus (${message}). Install and start gnome-keyring (sudo apt-get install gnome-keyring) or another Secret Service provider such as KeePassXC.${tail}`;
    case 'locked':
      return `The keyring is locked (${message}). Unlock your keyring (log in to the desktop session, or unlock it in your keyring manager), then restart Privacy Desk.${tail}`;
    case 'other':
      return `The OS keychain could not be used (${message}). Check that your keychain is available and unlocked, then restart Privacy Desk.${tail}`;
  }
}

class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function shortMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim().slice(0, 200) || 'no details';
}
