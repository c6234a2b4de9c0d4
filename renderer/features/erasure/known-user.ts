import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { UserRecord } from '../../../shared/users';

/** Users held by one cached answer: a page of the table ({ users }) or a search answer ({ matches: [{ user }] }). */
function usersIn(data: unknown): UserRecord[] {
  if (!data || typeof data !== 'object') return [];
  const found: UserRecord[] = [];
  const { users, matches } = data as { users?: unknown; matches?: unknown };
  if (Array.isArray(users)) found.push(...(users as UserRecord[]));
  if (Array.isArray(matches)) for (const match of matches) if (match && typeof match === 'object' && 'user' in match) found.push((match as { user: UserRecord }).user);
  return found;
}

/**
 * The user this uid belongs to, as far as the console already knows it: the
 * table's loaded pages and the search's answers for this profile (every cached
 * query keyed by the profile). Exact match only: " bob" is not "bob".
 */
export function findKnownUser(queryClient: QueryClient, profileId: string, uid: string): UserRecord | undefined {
  for (const query of queryClient.getQueryCache().getAll()) {
    if (!query.queryKey.includes(profileId)) continue;
    const user = usersIn(query.state.data).find((candidate) => candidate.uid === uid);
    if (user) return user;
  }
  return undefined;
}

export function useKnownUser(profileId: string, uid: string): UserRecord | undefined {
  return findKnownUser(useQueryClient(), profileId, uid);
}
