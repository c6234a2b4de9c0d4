import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgeInput } from '../../../shared/contract';
import { PrivacyDeskError } from '../../../shared/errors';
import type { UsersWalkProgress } from '../../../shared/jobs';
import { msg } from '../../../shared/messages';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { followJob, type FollowedJob } from '../../bridge/jobs';
import { useReconcile } from './reconcile-store';

export type ReconcileRunState =
  | { phase: 'idle' }
  | { phase: 'running'; progress?: UsersWalkProgress; cancelling: boolean }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/**
 * Runs a reconciliation (the reconcile job: every page of users, read-only) with its progress and a Cancel; a
 * finished one goes to the store with its profile. Leaving the screen stops following it.
 */
export function useReconcileJob() {
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const [state, setState] = useState<ReconcileRunState>({ phase: 'idle' });
  const job = useRef<FollowedJob | null>(null);

  const start = useCallback(
    async (input: BridgeInput<'reconcile.start'>) => {
      if (!events) {
        setState({ phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) });
        return;
      }
      setState({ phase: 'running', cancelling: false });
      let followed: FollowedJob;
      try {
        followed = await followJob(bridge, events, () => bridge['reconcile.start'](input), {
          // Read-only: a host that stops being heard ends it here as failed; it can simply be run again.
          endWhenContactLost: 'reconcile',
          onProgress: (progress) => {
            if (progress.kind === 'reconcile') setState((current) => ({ phase: 'running', progress, cancelling: current.phase === 'running' && current.cancelling }));
          },
        });
      } catch (error) {
        setState({ phase: 'failed', error });
        return;
      }
      job.current = followed;
      const finished = await followed.finished;
      if (job.current !== followed) return;
      job.current = null;
      if (finished.kind === 'reconcile' && finished.status === 'completed') {
        useReconcile.getState().set({ result: { profileId: input.profileId, summary: finished.result }, shownSet: 'orphans', filter: '', offset: 0 });
        setState({ phase: 'idle' });
      } else if (finished.status === 'failed') {
        setState({ phase: 'failed', error: new PrivacyDeskError(finished.error) });
      } else {
        setState({ phase: 'cancelled' });
      }
    },
    [bridge, events],
  );

  const cancel = useCallback(async () => {
    if (!job.current) return;
    setState((current) => (current.phase === 'running' ? { ...current, cancelling: true } : current));
    await job.current.cancel();
  }, []);

  useEffect(
    () => () => {
      job.current?.detach();
      job.current = null;
    },
    [],
  );

  return { state, start, cancel };
}
