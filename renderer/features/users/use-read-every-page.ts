import { useCallback, useEffect, useRef, useState } from 'react';
import type { UsersWalkProgress } from '../../../shared/jobs';
import { PrivacyDeskError } from '../../../shared/errors';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { followJob, type FollowedJob } from '../../bridge/jobs';
import { msg } from '../../../shared/messages';

export type ReadingState =
  | { phase: 'idle' }
  | { phase: 'reading'; progress?: UsersWalkProgress; cancelling: boolean }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/** How a read ended; `indexedAt` (completed) is the time of the list it kept, as the core says it. */
export type ReadEnding = { status: 'completed'; indexedAt: string } | { status: 'cancelled' } | { status: 'failed'; error: unknown } | { status: 'detached' };

/**
 * Reads every page of a profile's users now (the users.index job, which keeps them in the main process for
 * users.search and users.lookup), with its progress and a Cancel. One read at a time per screen; leaving the
 * screen or changing profile stops following it.
 */
export function useReadEveryPage(profileId: string) {
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const [state, setState] = useState<ReadingState>({ phase: 'idle' });
  const job = useRef<FollowedJob | null>(null);
  const inFlight = useRef<Promise<ReadEnding> | null>(null);
  const mounted = useRef(true);

  const readNow = useCallback(async (): Promise<ReadEnding> => {
    if (!events) {
      const error = new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') });
      setState({ phase: 'failed', error });
      return { status: 'failed', error };
    }
    setState({ phase: 'reading', cancelling: false });
    let followed: FollowedJob;
    try {
      followed = await followJob(bridge, events, () => bridge['users.index']({ profileId }), {
        endWhenContactLost: 'users.index',
        onProgress: (progress) => {
          if (progress.kind === 'users.index' && mounted.current) setState((current) => ({ phase: 'reading', progress, cancelling: current.phase === 'reading' && current.cancelling }));
        },
      });
    } catch (error) {
      setState({ phase: 'failed', error });
      return { status: 'failed', error };
    }
    job.current = followed;
    const finished = await followed.finished;
    if (job.current !== followed || !mounted.current) return { status: 'detached' };
    job.current = null;
    if (finished.status === 'completed' && finished.kind === 'users.index') {
      setState({ phase: 'idle' });
      return { status: 'completed', indexedAt: finished.result.indexedAt };
    }
    if (finished.status === 'failed') {
      // The event carries the error as plain data: made whole again, it is worded and shown like any other.
      const error = new PrivacyDeskError(finished.error);
      setState({ phase: 'failed', error });
      return { status: 'failed', error };
    }
    setState({ phase: 'cancelled' });
    return { status: 'cancelled' };
  }, [bridge, events, profileId]);

  /** Starts a read, or joins the one under way: both callers learn how it ended. */
  const read = useCallback((): Promise<ReadEnding> => {
    inFlight.current ??= readNow().finally(() => {
      inFlight.current = null;
    });
    return inFlight.current;
  }, [readNow]);

  const cancel = useCallback(async () => {
    if (!job.current) return;
    setState((current) => (current.phase === 'reading' ? { ...current, cancelling: true } : current));
    await job.current.cancel();
  }, []);

  const reset = useCallback(() => setState({ phase: 'idle' }), []);

  // Another profile, or the screen went away: stop following; the read's result is the core's to keep.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      job.current?.detach();
      job.current = null;
      inFlight.current = null;
      setState({ phase: 'idle' });
    };
  }, [profileId]);

  return { state, read, cancel, reset };
}
