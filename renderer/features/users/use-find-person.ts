import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UsersWalkProgress } from '../../../shared/jobs';
import type { UserSearchAnswer } from '../../../shared/user-search';
import { PrivacyDeskError } from '../../../shared/errors';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { followJob, type FollowedJob } from '../../bridge/jobs';
import { queryKeys } from '../../state/query-keys';

export type IndexingState =
  | { phase: 'idle' }
  | { phase: 'reading'; progress?: UsersWalkProgress; cancelling: boolean }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/** Keyed under the profile's users, so an erasure's invalidation asks the (updated) index again. */
const searchKey = (profileId: string, text: string) => [...queryKeys.usersOfProfile(profileId), 'search', text] as const;

/**
 * Find a person on any page: searches the main process's index of every user
 * (users.search); when there is none, reads every page first (the users.index
 * job, with progress and Cancel), then searches.
 */
export function useFindPerson(profileId: string) {
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [indexing, setIndexing] = useState<IndexingState>({ phase: 'idle' });
  const job = useRef<FollowedJob | null>(null);

  const search = useQuery({
    queryKey: searchKey(profileId, text),
    queryFn: (): Promise<UserSearchAnswer> => bridge['users.search']({ profileId, text }),
    enabled: text !== '',
    retry: false,
  });

  const readEveryPage = useCallback(async () => {
    if (job.current) return;
    if (!events) {
      setIndexing({ phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', message: 'This window cannot follow long work (no event channel): reload it.' }) });
      return;
    }
    setIndexing({ phase: 'reading', cancelling: false });
    try {
      const followed = await followJob(bridge, events, () => bridge['users.index']({ profileId }), {
        onProgress: (progress) => {
          if (progress.kind === 'users.index') setIndexing({ phase: 'reading', progress, cancelling: false });
        },
      });
      job.current = followed;
      const finished = await followed.finished;
      job.current = null;
      if (finished.status === 'completed') {
        setIndexing({ phase: 'idle' });
        await queryClient.invalidateQueries({ queryKey: [...queryKeys.usersOfProfile(profileId), 'search'] });
      } else if (finished.status === 'cancelled') {
        setIndexing({ phase: 'cancelled' });
      } else {
        setIndexing({ phase: 'failed', error: finished.error });
      }
    } catch (error) {
      job.current = null;
      setIndexing({ phase: 'failed', error });
    }
  }, [bridge, events, profileId, queryClient]);

  // No index yet (or it was dropped): read every page once, then the search answers.
  const missing = search.data?.state === 'missing';
  useEffect(() => {
    if (missing && indexing.phase === 'idle') void readEveryPage();
  }, [missing, indexing.phase, readEveryPage]);

  // Another profile, or the screen went away: stop following; the walk's result is the core's to keep.
  useEffect(
    () => () => {
      job.current?.detach();
      job.current = null;
      setIndexing({ phase: 'idle' });
    },
    [profileId],
  );

  const cancel = useCallback(async () => {
    if (!job.current) return;
    setIndexing((state) => (state.phase === 'reading' ? { ...state, cancelling: true } : state));
    await job.current.cancel();
  }, []);

  /** The operator wants fresh data: drop the index and read every page again. */
  const readAgain = useCallback(async () => {
    await bridge['users.forgetIndex']({ profileId });
    setIndexing({ phase: 'idle' });
    await queryClient.invalidateQueries({ queryKey: [...queryKeys.usersOfProfile(profileId), 'search'] });
  }, [bridge, profileId, queryClient]);

  const find = useCallback((next: string) => {
    setIndexing((state) => (state.phase === 'cancelled' || state.phase === 'failed' ? { phase: 'idle' } : state));
    setText(next.trim());
  }, []);

  return { text, find, search, indexing, cancel, readAgain, retry: () => setIndexing({ phase: 'idle' }) };
}
