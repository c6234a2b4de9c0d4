import type { QueryClient } from '@tanstack/react-query';
import type { UserRecord } from '../../../shared/users';
import { queryKeys } from '../../state/query-keys';

/** A user as a loaded page of the table shows them, and when that page was read (this window's clock). */
export interface KnownUser {
  user: UserRecord;
  readAt: number;
}

/**
 * The user with exactly this uid on a page of the users table already loaded for this profile (" bob" is
 * not "bob"), with the time that page was read. Search answers are not used: the core answers for them
 * (users.lookup), with the age of the list they come from.
 */
export function findKnownUser(queryClient: QueryClient, profileId: string, uid: string): KnownUser | undefined {
  let found: KnownUser | undefined;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.usersOfProfile(profileId) })) {
    const users = (query.state.data as { users?: unknown } | undefined)?.users;
    if (!Array.isArray(users)) continue;
    const user = (users as UserRecord[]).find((candidate) => candidate.uid === uid);
    // The most recently read page wins: it is the truest.
    if (user && (!found || query.state.dataUpdatedAt > found.readAt)) found = { user, readAt: query.state.dataUpdatedAt };
  }
  return found;
}
