import { z } from 'zod';
import { profileIdSchema } from './profile';
import type { AuditStage, AuditVia } from './audit';
import { MAX_UID_LENGTH } from './uid';
import { MAX_PER_PAGE, type ErasureAction, type UserRecord } from './users';

/**
 * "Find a person on any page": the core walks every page of a profile's users
 * once (the `users.index` job) and keeps them in memory only; `users.search`
 * then looks through them by uid, name or e-mail, ignoring case and accents,
 * and `users.lookup` answers for one exact uid. Before each answer the core
 * takes out the users whose erasure the audit trail recorded since.
 */

export const SEARCH_MAX_TEXT = 200;
export const SEARCH_DEFAULT_LIMIT = 50;
export const SEARCH_MAX_LIMIT = 500;

export const userSearchInputSchema = z.object({
  profileId: profileIdSchema,
  text: z.string().trim().min(1).max(SEARCH_MAX_TEXT),
  limit: z.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
});
export type UserSearchInput = z.input<typeof userSearchInputSchema>;

export const SEARCHED_FIELDS = ['uid', 'fullName', 'email'] as const;
export type SearchedField = (typeof SEARCHED_FIELDS)[number];

/** A matched part of one field, in UTF-16 offsets of the field's own text (start inclusive, end exclusive). */
export interface MatchRange {
  field: SearchedField;
  start: number;
  end: number;
}

export interface UserMatch {
  user: UserRecord;
  ranges: MatchRange[];
}

/** How old the list an answer comes from is: when it was read (ISO 8601) and its age in milliseconds when answered. */
export interface ListAge {
  indexedAt: string;
  /** Measured by the core's clock; the window adds the time since the answer came (its own clock may differ). */
  ageMs: number;
}

/**
 * missing: no index for this profile (never built, dropped after a profile change, on request or when too old):
 * start the `users.index` job. ready: the best matches first, `total` of them in all, from the index built at `indexedAt`.
 * A search says nobody matches only from a list read for that question: on an older list, read it again first.
 */
export type UserSearchAnswer =
  | { state: 'missing' }
  | ({ state: 'ready'; matches: UserMatch[]; total: number; indexedUsers: number } & ListAge);

/** `users.lookup`: is there a user with exactly this uid (spaces and case included) on the profile's list? */
export const userLookupInputSchema = z.object({
  profileId: profileIdSchema,
  uid: z.string().min(1).max(MAX_UID_LENGTH),
});
export type UserLookupInput = z.input<typeof userLookupInputSchema>;

/**
 * An anonymise or delete of this uid that the audit trail of this computer recorded since this program
 * started (any process: the console, the CLI, a batch), on this profile or on the same service address.
 * Whatever its outcome, the list read before it may no longer hold true for this uid.
 */
export interface RecordedErasure {
  action: ErasureAction;
  /** The audit entry's time, as written. */
  at: string;
  via: AuditVia;
  /** The entry's stage: done, unknown, refused (the service did not know the uid) or verification. */
  outcome: AuditStage;
}

/**
 * How a user on the list differs from a uid that is not on it, when only in what a person does not mean:
 * spaces at either end (" user-000031 "), characters a reader cannot see (a zero-width space, a no-break space
 * for a space, another Unicode composition of the same letters), or upper and lower case ("ZOË.MÜLLER").
 */
export type NearMatchKind = 'edge-spaces' | 'looks-same' | 'case';

export interface NearMatch {
  user: UserRecord;
  kind: NearMatchKind;
}

/**
 * found: on the list read `ageMs` ago (erasures recorded since have been taken out).
 * absent: not on that list — which proves nothing unless the list was read for this question (the window reads
 * it again first, with users.index); `nearMatches`: the users on it the uid was likely meant for (at most 5). missing: no list is kept; `erasure` says this uid was erased since start.
 */
export type UserLookupAnswer =
  | ({ state: 'found'; user: UserRecord } & ListAge)
  | ({ state: 'absent'; indexedUsers: number; erasure?: RecordedErasure; nearMatches?: NearMatch[] } & ListAge)
  | { state: 'missing'; erasure?: RecordedErasure };

/**
 * `users.erasedSince`: which uids of a page of users, read at `since` (the core's clock, `UserPage.readAt`), the
 * audit trail of this computer records an erasure of since then, by any process (this console, the CLI, a batch).
 * The console marks those rows instead of offering to act on them; it asks again while the page is shown.
 */
export const erasedSinceInputSchema = z.object({
  profileId: profileIdSchema,
  since: z.iso.datetime({ offset: true }),
  uids: z.array(z.string().min(1).max(MAX_UID_LENGTH)).max(MAX_PER_PAGE),
});
export type ErasedSinceInput = z.input<typeof erasedSinceInputSchema>;

export interface ErasedSince extends RecordedErasure {
  uid: string;
}

/** `complete` is false when the trail was replaced or cut since `since`: an erasure may have gone unseen (read the page again). */
export interface ErasedSinceAnswer {
  erasures: ErasedSince[];
  complete: boolean;
}
