import { uidParts } from '../shared/invisible-characters';
import { SEARCHED_FIELDS, SEARCH_DEFAULT_LIMIT, type NearMatch, type NearMatchKind, type UserLookupAnswer, type UserMatch, type UserSearchAnswer } from '../shared/user-search';
import type { UserRecord } from '../shared/users';
import { serviceKey } from './erasure-feed';
import type { ListAllProgress } from './list-all-users';
import { matchRanges, searchKey } from './search-text';

/** How long a walk's result is trusted: past this, search says "missing" and the console walks again. */
export const USER_INDEX_TTL_MS = 15 * 60_000;

/** The most users named as what an absent uid was likely meant for. */
const MAX_NEAR_MATCHES = 5;

/** The most one page of a walk for the index may take, its retries included: someone is waiting to be told. */
export const INDEX_PAGE_BUDGET_MS = 15_000;

export interface WalkOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ListAllProgress) => void;
  /** The most one page may take, its retries and waits included (default: the walker's own, 2 minutes). */
  pageBudgetMs?: number;
}

export interface UserIndexesOptions {
  /** Every user of a profile, every page (core/list-all-users.ts). */
  walk: (profileId: string, options: WalkOptions) => Promise<{ users: UserRecord[]; pages: number; baseUrl: string }>;
  now?: () => number;
  ttlMs?: number;
}

interface IndexedUser {
  user: UserRecord;
  keys: [string, string, string];
}

interface UserIndex {
  builtAt: number;
  /** The service's address (serviceKey): an erasure recorded by a CLI run with --base-url names no profile. */
  service: string;
  users: IndexedUser[];
}

/** An erasure to take out of the indexes: by the profile that sent it, or by the service it was sent to. */
export interface ErasedUser {
  uid: string;
  profileId: string;
  service: string;
}

export type UserIndexes = ReturnType<typeof createUserIndexes>;

/**
 * One in-memory index of users per profile, for "find a person on any page". Never
 * written anywhere: it lives as long as the process, and is dropped when the profile
 * changes, when asked, and once older than the time limit; an erasure removes its user
 * (the Desk passes every erasure the audit trail records, whichever process wrote it).
 * Every answer says how old its list is: absence proves nothing on an old list.
 */
export function createUserIndexes(options: UserIndexesOptions) {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? USER_INDEX_TTL_MS;
  const indexes = new Map<string, UserIndex>();
  // A build that began before a drop is discarded when it ends: the profile it read may have changed since.
  const generation = new Map<string, number>();
  // Erasures met while a walk runs: the pages it read before them may still hold their users.
  const walking = new Set<ErasedUser[]>();

  const concerns = (index: UserIndex, profileId: string, erased: ErasedUser) => erased.profileId === profileId || erased.service === index.service;
  const remove = (index: UserIndex, uids: ReadonlySet<string>) => {
    if (uids.size > 0) index.users = index.users.filter((entry) => entry.user.uid === null || !uids.has(entry.user.uid));
  };

  const current = (profileId: string): UserIndex | undefined => {
    const index = indexes.get(profileId);
    if (index && now() - index.builtAt >= ttlMs) {
      indexes.delete(profileId);
      return undefined;
    }
    return index;
  };

  const forget = (profileId: string): boolean => {
    generation.set(profileId, (generation.get(profileId) ?? 0) + 1);
    return indexes.delete(profileId);
  };
  const ageOf = (index: UserIndex) => ({ indexedAt: new Date(index.builtAt).toISOString(), ageMs: Math.max(0, now() - index.builtAt) });

  return {
    /** Walks every page and keeps the result; answers how many users and pages were read. */
    async build(profileId: string, walkOptions: WalkOptions = {}): Promise<{ users: number; pages: number; indexedAt: string }> {
      const startedIn = generation.get(profileId) ?? 0;
      const metWhileWalking: ErasedUser[] = [];
      walking.add(metWhileWalking);
      let walked;
      try {
        walked = await options.walk(profileId, walkOptions);
      } finally {
        walking.delete(metWhileWalking);
      }
      const { users, pages, baseUrl } = walked;
      const builtAt = now();
      const index: UserIndex = { builtAt, service: serviceKey(baseUrl), users: users.map(indexed) };
      remove(index, new Set(metWhileWalking.filter((erased) => concerns(index, profileId, erased)).map((erased) => erased.uid)));
      if ((generation.get(profileId) ?? 0) === startedIn) indexes.set(profileId, index);
      return { users: index.users.length, pages, indexedAt: new Date(builtAt).toISOString() };
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
      return { state: 'ready', matches, total: found.length, indexedUsers: index.users.length, ...ageOf(index) };
    },

    /** The user with exactly this uid on the kept list; `absent` is only as true as the list is fresh (its age says). */
    lookup(profileId: string, uid: string): UserLookupAnswer {
      const index = current(profileId);
      if (!index) return { state: 'missing' };
      const entry = index.users.find((candidate) => candidate.user.uid === uid);
      if (entry) return { state: 'found', user: entry.user, ...ageOf(index) };
      const nearMatches = nearMatchesOf(index.users, uid);
      return { state: 'absent', indexedUsers: index.users.length, ...ageOf(index), ...(nearMatches.length > 0 ? { nearMatches } : {}) };
    },

    /**
     * Takes erased users out (by uid): anonymised or deleted, they are no longer who the ticket names. Each applies
     * to the index of the profile that sent it and to every index of the same service; walks under way keep it too.
     */
    erased(erasures: readonly ErasedUser[]): void {
      if (erasures.length === 0) return;
      for (const list of walking) list.push(...erasures);
      for (const [profileId, index] of indexes) remove(index, new Set(erasures.filter((erased) => concerns(index, profileId, erased)).map((erased) => erased.uid)));
    },

    /** The service address of the profile's kept list, when there is one. */
    serviceOf(profileId: string): string | undefined {
      return current(profileId)?.service;
    },

    /** Drops every index (the audit trail was replaced: which users were erased since can no longer be told). */
    forgetAll(): void {
      for (const profileId of new Set([...indexes.keys(), ...generation.keys()])) forget(profileId);
    },

    /** Drops a profile's index (the profile changed or was removed, or the operator asked). true when there was one. */
    forget,

    has(profileId: string): boolean {
      return current(profileId) !== undefined;
    },
  };
}

/**
 * The users an absent uid was likely meant for: a uid equal to it but for spaces at either end, for what a reader
 * cannot see (invisible characters, a kind of space, Unicode composition), or for case. Best kind first.
 */
function nearMatchesOf(users: readonly IndexedUser[], asked: string): NearMatch[] {
  const askedTrimmed = asked.trim();
  const askedSeen = seenForm(asked);
  const askedFolded = askedSeen.toLowerCase();
  const found: NearMatch[] = [];
  for (const { user } of users) {
    const uid = user.uid;
    if (uid === null || uid === asked) continue;
    let kind: NearMatchKind | undefined;
    if (uid.trim() === askedTrimmed) kind = 'edge-spaces';
    else {
      const seen = seenForm(uid);
      if (seen === askedSeen) kind = 'looks-same';
      else if (seen.toLowerCase() === askedFolded) kind = 'case';
    }
    if (kind) found.push({ user, kind });
  }
  const order: NearMatchKind[] = ['edge-spaces', 'looks-same', 'case'];
  return found.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind)).slice(0, MAX_NEAR_MATCHES);
}

/** A uid as a reader sees it: composed (NFC), every kind of space one plain space, invisible characters gone, trimmed. */
function seenForm(uid: string): string {
  // Most uids are plain ASCII with nothing to take out.
  if (/^[\x21-\x7e]*$/.test(uid)) return uid;
  return uidParts(uid.normalize('NFC'))
    .map((part) => (part.kind === 'text' ? part.text : /\s/u.test(part.char) ? ' ' : ''))
    .join('')
    .trim();
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
