import { useCallback, useEffect, useRef, useState } from 'react';
import type { BatchCheckResult } from '../../../shared/batch';
import { PrivacyDeskError } from '../../../shared/errors';
import type { UsersWalkProgress } from '../../../shared/jobs';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { followJob, type FollowedJob } from '../../bridge/jobs';
import { msg } from '../../../shared/messages';

export type CheckState =
  | { phase: 'idle' }
  | { phase: 'checking'; progress?: UsersWalkProgress; cancelling: boolean }
  | { phase: 'done'; result: BatchCheckResult }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/** The optional check against the service: a read-only walk of the users list (batch.check job) for one draft. */
export function useBatchCheck(draftId: string | undefined, profileId: string) {
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const [state, setState] = useState<CheckState>({ phase: 'idle' });
  const job = useRef<FollowedJob | null>(null);

  // Another list or profile: the last answer no longer applies, and a walk under way is stopped.
  useEffect(() => {
    setState({ phase: 'idle' });
    return () => {
      const running = job.current;
      job.current = null;
      if (running) {
        running.detach();
        void running.cancel().catch(() => undefined);
      }
    };
  }, [draftId, profileId]);

  const check = useCallback(async () => {
    if (!draftId || job.current) return;
    if (!events) {
      setState({ phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) });
      return;
    }
    setState({ phase: 'checking', cancelling: false });
    try {
      const followed = await followJob(bridge, events, () => bridge['batch.check']({ draftId, profileId }), {
        endWhenContactLost: 'batch.check',
        onProgress: (progress) => {
          if (progress.kind === 'batch.check') setState((now) => (now.phase === 'checking' ? { ...now, progress } : now));
        },
      });
      job.current = followed;
      const finished = await followed.finished;
      if (job.current !== followed) return;
      job.current = null;
      if (finished.kind !== 'batch.check') return;
      if (finished.status === 'completed') setState({ phase: 'done', result: finished.result });
      else if (finished.status === 'cancelled') setState({ phase: 'cancelled' });
      // The event carries the error as plain data: made whole again, it is worded and shown like any other.
      else setState({ phase: 'failed', error: new PrivacyDeskError(finished.error) });
    } catch (error) {
      job.current = null;
      setState({ phase: 'failed', error });
    }
  }, [bridge, events, draftId, profileId]);

  const cancel = useCallback(async () => {
    if (!job.current) return;
    setState((now) => (now.phase === 'checking' ? { ...now, cancelling: true } : now));
    await job.current.cancel();
  }, []);

  return { state, check, cancel };
}
