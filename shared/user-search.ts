import { z } from 'zod';
import { profileIdSchema } from './profile';
import type { UserRecord } from './users';

/**
 * "Find a person on any page": the core walks every page of a profile's users
 * once (the `users.index` job) and keeps them in memory only; `users.search`
 * then looks through them by uid, name or e-mail, ignoring case and accents.
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

/**
 * missing: no index for this profile (never built, dropped after a profile change, on request or when too old):
 * start the `users.index` job. ready: the best matches first, `total` of them in all, from the index built at `indexedAt`.
 */
export type UserSearchAnswer =
  | { state: 'missing' }
  | { state: 'ready'; matches: UserMatch[]; total: number; indexedAt: string; indexedUsers: number };
