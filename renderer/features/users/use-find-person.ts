import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { UserSearchAnswer } from '../../../shared/user-search';
import { useBridge } from '../../bridge/bridge-context';
import { queryKeys } from '../../state/query-keys';
import { useReadEveryPage, type ReadEnding } from './use-read-every-page';
import { ERASED_SINCE_POLL_MS } from './use-erased-since';

/** Keyed under the profile's users, so an erasure's invalidation asks the (updated) index again. */
const searchKey = (profileId: string, text: string) => [...queryKeys.usersOfProfile(profileId), 'search', text] as const;

/**
 * Find a person on any page: searches the main process's index of every user (users.search; it takes out
 * first the users any process on this computer erased since). Without an index, it reads every page first
 * (the users.index job, with progress and Cancel). "Nobody matches" is said only from a list read for this
 * question: on an older list, every page is read again first, then and there.
 */
export function useFindPerson(profileId: string) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  // The read made for a question, so its answer may say "nobody" (indexedAt: the list it kept).
  const [freshRead, setFreshRead] = useState<{ profileId: string; text: string; indexedAt: string } | null>(null);
  const reader = useReadEveryPage(profileId);
  const { read } = reader;

  const search = useQuery({
    queryKey: searchKey(profileId, text),
    queryFn: (): Promise<UserSearchAnswer> => bridge['users.search']({ profileId, text }),
    enabled: text !== '',
    retry: false,
    // Asked again while shown: the core takes out first whoever any process on this computer erased since (the CLI
    // too), so a match deleted meanwhile leaves the list, and the count with it, within a few seconds.
    refetchInterval: ERASED_SINCE_POLL_MS,
  });
  const answer = search.data;
  const fresh = answer?.state === 'ready' && freshRead?.profileId === profileId && freshRead.text === text && answer.indexedAt >= freshRead.indexedAt;

  const readFor = useCallback(
    async (question: string): Promise<ReadEnding> => {
      const ending = await read();
      if (ending.status === 'completed') {
        setFreshRead({ profileId, text: question, indexedAt: ending.indexedAt });
        await queryClient.invalidateQueries({ queryKey: [...queryKeys.usersOfProfile(profileId), 'search'] });
      }
      return ending;
    },
    [profileId, queryClient, read],
  );

  // No index yet (or it was dropped), or nobody matches on a list read before this question: read every page now.
  const needsRead = text !== '' && !search.isFetching && (answer?.state === 'missing' || (answer?.state === 'ready' && answer.total === 0 && !fresh));
  useEffect(() => {
    if (needsRead && reader.state.phase === 'idle') void readFor(text);
  }, [needsRead, reader.state.phase, readFor, text]);

  /** The operator wants fresh data: read every page again now (the kept list is replaced when the read ends). */
  const readAgain = useCallback(() => void readFor(text), [readFor, text]);

  const find = useCallback(
    (next: string) => {
      if (reader.state.phase === 'cancelled' || reader.state.phase === 'failed') reader.reset();
      const question = next.trim();
      // The same question asked again is asked of the core again, never answered from this window's memory.
      if (question === text && question !== '') void search.refetch();
      setText(question);
    },
    [reader, search, text],
  );

  return {
    text,
    find,
    search,
    /** When the list the answer comes from was read, in this window's clock. */
    readAt: answer?.state === 'ready' ? search.dataUpdatedAt - answer.ageMs : undefined,
    /** The answer comes from a list read for this question: "nobody" is then true of the service. */
    fresh,
    indexing: reader.state,
    cancel: reader.cancel,
    readAgain,
    retry: reader.reset,
  };
}
