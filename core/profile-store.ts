import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { PrivacyDeskError } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import { profileSchema, type Profile } from '../shared/profile';
import { ensureDataDir } from './data-dir';
import { PROFILES_LOCK, withDataLock, type DataLockOptions } from './data-lock';

export const PROFILES_FILE_NAME = 'profiles.json';

const profileFileSchema = z.object({
  version: z.literal(1),
  activeId: z.string().nullable(),
  profiles: z.array(profileSchema),
});
export type ProfileFile = z.infer<typeof profileFileSchema>;

export interface ProfileStore {
  readonly path: string;
  /** The current list; an empty one when the file does not exist yet. Throws PROFILE_STORE_CORRUPT. */
  read(): Promise<ProfileFile>;
  /**
   * Read, change, write atomically, all under the data folder's profiles lock: saves from this
   * process and from other processes (app, CLI) never lose each other. Refuses while the file is corrupt.
   */
  update<T>(change: (data: ProfileFile) => T | Promise<T>): Promise<T>;
  /** Only on the operator's explicit request: moves a corrupt file aside and starts with no profiles. */
  startFresh(): Promise<{ setAsidePath: string | null }>;
}

const emptyFile = (): ProfileFile => ({ version: 1, activeId: null, profiles: [] });

export function openProfileStore(dataDir: string, lockOptions: DataLockOptions = {}): ProfileStore {
  const path = join(dataDir, PROFILES_FILE_NAME);

  const read = async (): Promise<ProfileFile> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyFile();
      throw corrupt(path, msg('profile.storeUnreadable'), (error as NodeJS.ErrnoException).code ?? 'unknown error');
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw corrupt(path, msg('profile.storeNotJson'));
    }
    const parsed = profileFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      // Where the file departs from its shape is data; zod's own words about it are the system's, quoted apart.
      throw corrupt(path, msg('profile.storeBadShape', { where: issue?.path.join('.') || '/' }), issue?.message);
    }
    return parsed.data;
  };

  return {
    path,
    // Writers replace the file by rename, so a reader sees the old list or the new one: no lock needed.
    read,
    update: (change) =>
      withDataLock(dataDir, PROFILES_LOCK, async (hold) => {
        const data = await read(); // re-read under the lock; throws while corrupt: a corrupt file is never overwritten
        const result = await change(data);
        await writeAtomically(path, `${JSON.stringify(profileFileSchema.parse(data), null, 2)}\n`, hold.assertHeld);
        return result;
      }, lockOptions),
    startFresh: () =>
      withDataLock(dataDir, PROFILES_LOCK, async (hold) => {
        try {
          await read();
          return { setAsidePath: null }; // nothing wrong: keep the profiles
        } catch (error) {
          if (!(error instanceof PrivacyDeskError) || error.code !== 'PROFILE_STORE_CORRUPT') throw error;
        }
        const setAsidePath = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        hold.assertHeld();
        await rename(path, setAsidePath);
        return { setAsidePath };
      }, lockOptions),
  };
}

function corrupt(path: string, reason: MessageText, systemDetail?: string): PrivacyDeskError {
  return new PrivacyDeskError({ code: 'PROFILE_STORE_CORRUPT', text: msg('profile.storeCorrupt', { path, reason }), ...(systemDetail ? { quote: { from: 'system', text: systemDetail } } : {}) });
}

/**
 * Temp file in the same folder + fsync + rename: a crash leaves the old file or the new one, never half of one.
 * `beforeRename` may throw (a lost lock) to drop the new content before anyone can see it.
 */
export async function writeAtomically(path: string, content: string, beforeRename: () => void = () => undefined): Promise<void> {
  const dir = join(path, '..');
  ensureDataDir(dir);
  const tempPath = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const handle = await open(tempPath, 'wx', 0o600);
  try {
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    beforeRename();
    await rename(tempPath, path);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
  // Persist the rename itself; not every platform can open a folder, so this is best effort.
  const dirHandle = await open(dir, 'r').catch(() => null);
  if (dirHandle) await dirHandle.sync().catch(() => undefined).finally(() => dirHandle.close());
}

/** Slug of the name plus a short random suffix, e.g. "Production EU" => "production-eu-4f9a2c". */
export function makeProfileId(name: string, takenIds: Iterable<string> = []): string {
  const taken = new Set(takenIds);
  const slug =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48)
      .replace(/-+$/g, '') || 'profile';
  for (;;) {
    const id = `${slug}-${randomBytes(3).toString('hex')}`;
    if (!taken.has(id)) return id;
  }
}

/** Names are unique ignoring case, so "Production" and "production" cannot both exist. */
export function assertUniqueName(data: ProfileFile, name: string, exceptId?: string): void {
  const wanted = name.trim().toLocaleLowerCase();
  const clash = data.profiles.find((p) => p.id !== exceptId && p.name.trim().toLocaleLowerCase() === wanted);
  if (clash) {
    throw new PrivacyDeskError({
      code: 'INVALID_INPUT',
      text: msg('profile.nameTaken', { name: clash.name }),
    });
  }
}

export function findProfile(data: ProfileFile, id: string): Profile {
  const found = data.profiles.find((p) => p.id === id);
  if (!found) throw profileNotFound(id);
  return found;
}

export function profileNotFound(idOrName: string): PrivacyDeskError {
  return new PrivacyDeskError({
    code: 'PROFILE_NOT_FOUND',
    text: msg('profile.notFound', { profile: idOrName }),
  });
}
