import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBridge } from '../../bridge/bridge-context';
import { queryKeys } from '../../state/query-keys';

/** One page of users for a profile; the next page is prefetched so "Next page" feels instant. */
export function useUsersPage(profileId: string, page: number, perPage: number) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.usersPage(profileId, page, perPage),
    queryFn: () => bridge['users.list']({ profileId, page, perPage }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const hasNext = query.data?.hasNext === true && query.data.page === page && !query.isPlaceholderData;
  useEffect(() => {
    if (!hasNext) return;
    void queryClient.prefetchQuery({
      queryKey: queryKeys.usersPage(profileId, page + 1, perPage),
      queryFn: () => bridge['users.list']({ profileId, page: page + 1, perPage }),
      staleTime: 30_000,
    });
  }, [bridge, hasNext, page, perPage, profileId, queryClient]);
  return query;
}

/** Stable key for a row: the uid when there is one (anonymised users have none). */
export function userRowKey(user: { uid: string | null; fields: Record<string, unknown> }, index: number): string {
  if (user.uid !== null) return `uid:${user.uid}`;
  const id = user.fields.id;
  return typeof id === 'number' || typeof id === 'string' ? `id:${id}` : `row:${index}`;
}
