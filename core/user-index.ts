import { SEARCHED_FIELDS, SEARCH_DEFAULT_LIMIT, type UserMatch, type UserSearchAnswer } from '../shared/user-search';
import type { UserRecord } from '../shared/users';
import type { ListAllProgress } from './list-all-users';
import { matchRanges, searchKey } from './search-text';

/** How long a walk's result is trusted: past this, search says "missing" and the console walks again. */
export const USER_INDEX_TTL_MS = 15 * 60_000;

export interface WalkOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ListAllProgress) => void;
}

export interface UserIndexesOptions {
  /** Every user of a profile, every page (core/list-all-users.ts). */
  walk: (profileId: string, options: WalkOptions) => Promise<{ users: UserRecord[]; pages: number }>;
  now?: () => number;
  ttlMs?: number;
}

interface IndexedUser {
  user: UserRecord;
  keys: [string, string, string];
}

interface UserIndex {
  builtAt: number;
  users: IndexedUser[];
}

export type UserIndexes = ReturnType<typeof createUserIndexes>;

/**
 * One in-memory index of users per profile, for "find a person on any page". Never
 * written anywhere: it lives as long as the process, and is dropped when the profile
 * changes, when asked, and once older than the time limit; an erasure removes its user.
 */
export function createUserIndexes(options: UserIndexesOptions) {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? USER_INDEX_TTL_MS;
  const indexes = new Map<string, UserIndex>();
  // A build that began before a drop is discarded when it ends: the profile it read may have changed since.
  const generation = new Map<string, number>();

  const current = (profileId: string): UserIndex | undefined => {
    const index = indexes.get(profileId);
    if (index && now() - index.builtAt >= ttlMs) {
      indexes.delete(profileId);
      return undefined;
    }
    return index;
  };

  return {
    /** Walks every page and keeps the result; answers how many users and pages were read. */
    async build(profileId: string, walkOptions: WalkOptions = {}): Promise<{ users: number; pages: number; indexedAt: string }> {
      const startedIn = generation.get(profileId) ?? 0;
      const { users, pages } = await options.walk(profileId, walkOptions);
      const builtAt = now();
      const index: UserIndex = { builtAt, users: users.map(indexed) };
      if ((generation.get(profileId) ?? 0) === startedIn) indexes.set(profileId, index);
      return { users: users.length, pages, indexedAt: new Date(builtAt).toISOString() };
    },

    search(profileId: string, text: string, limit = SEARCH_DEFAULT_LIMIT): UserSearchAnswer {
      const index = current(profileId);
      if (!index) return { state: 'missing' };
      const key = searchKey(text.trim());
      const found: { entry: IndexedUser; rank: number }[] = [];
      for (const entry of index.users) {
        const rank = rankOf(entry.keys, key);
        if (rank !== undefined) found.push({ entry, rank });
      }
      // Stable: equal ranks keep the service's order.
      found.sort((a, b) => a.rank - b.rank);
      const matches: UserMatch[] = found.slice(0, limit).map(({ entry }) => ({
        user: entry.user,
        ranges: SEARCHED_FIELDS.flatMap((field, i) => {
          const value = entry.user[field];
          return value !== null && entry.keys[i]!.includes(key) ? matchRanges(field, value, key) : [];
        }),
      }));
      return { state: 'ready', matches, total: found.length, indexedAt: new Date(index.builtAt).toISOString(), indexedUsers: index.users.length };
    },

    /** Removes the erased user (found by uid): anonymised or deleted, they are no longer who the ticket names. */
    erased(profileId: string, uid: string): void {
      const index = indexes.get(profileId);
      if (index) index.users = index.users.filter((entry) => entry.user.uid !== uid);
    },

    /** Drops a profile's index (the profile changed or was removed, or the operator asked). true when there was one. */
    forget(profileId: string): boolean {
      generation.set(profileId, (generation.get(profileId) ?? 0) + 1);
      return indexes.delete(profileId);
    },

    has(profileId: string): boolean {
      return current(profileId) !== undefined;
    },
  };
}

function indexed(user: UserRecord): IndexedUser {
  return { user, keys: [searchKey(user.uid ?? ''), searchKey(user.fullName ?? ''), searchKey(user.email ?? '')] };
}

/** 0: a field is exactly the text; 1: a field starts with it; 2: it occurs inside a field; undefined: no match. */
function rankOf(keys: readonly string[], key: string): number | undefined {
  let best: number | undefined;
  for (const field of keys) {
    const at = field.indexOf(key);
    if (at === -1) continue;
    const rank = at > 0 ? 2 : field.length === key.length ? 0 : 1;
    if (best === undefined || rank < best) best = rank;
  }
  return best;
}
