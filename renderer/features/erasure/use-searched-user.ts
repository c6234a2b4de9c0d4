import { useQuery } from '@tanstack/react-query';
import type { UserRecord } from '../../../shared/users';
import { useBridge } from '../../bridge/bridge-context';

export interface SearchedUser {
  /** The user with exactly this uid, found by the search over every page. */
  user?: UserRecord;
  /** Set when the search has a full list and no user has this uid: it will answer 404. */
  indexedUsers?: number;
  checking: boolean;
}

/**
 * Asks the search over every page (users.search) about a uid the loaded pages
 * do not hold. It never starts a walk: without an index the uid stays "not
 * seen" and the operator decides.
 */
export function useSearchedUser(profileId: string, uid: string, enabled: boolean): SearchedUser {
  const bridge = useBridge();
  const search = typeof bridge['users.search'] === 'function' ? bridge['users.search'] : undefined;
  const text = uid.trim();
  const lookup = useQuery({
    queryKey: ['identity-lookup', profileId, uid],
    queryFn: () => search!({ profileId, text: text.slice(0, 200) }),
    enabled: enabled && search !== undefined && text !== '',
    retry: false,
    staleTime: Infinity,
  });
  if (!lookup.data || lookup.data.state !== 'ready') return { checking: lookup.isLoading };
  const user = lookup.data.matches.find((match) => match.user.uid === uid)?.user;
  // Only the best matches come back: a miss proves absence only when every match was returned.
  const complete = lookup.data.matches.length >= lookup.data.total;
  return { checking: false, user, ...(user === undefined && complete ? { indexedUsers: lookup.data.indexedUsers } : {}) };
}
