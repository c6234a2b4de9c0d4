import { useCallback, useEffect, useRef, useState } from 'react';
import type { BatchRetryCheck } from '../../../shared/batch-retry';
import { PrivacyDeskError } from '../../../shared/errors';
import { msg } from '../../../shared/messages';
import type { UsersWalkProgress } from '../../../shared/jobs';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { followJob, type FollowedJob } from '../../bridge/jobs';

export type RetryCheckState =
  | { phase: 'checking'; progress?: UsersWalkProgress; cancelling: boolean }
  | { phase: 'done'; result: BatchRetryCheck }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: unknown };

/**
 * Which failed uids of a finished job are still on the service: a read-only walk of the users list (batch.retryCheck
 * job), started at once — what is sent again, and its count, come from it.
 */
export function useRetryCheck(batchId: string) {
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const [state, setState] = useState<RetryCheckState>({ phase: 'checking', cancelling: false });
  const job = useRef<FollowedJob | null>(null);

  const check = useCallback(async () => {
    if (job.current) return;
    if (!events) {
      setState({ phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) });
      return;
    }
    setState({ phase: 'checking', cancelling: false });
    try {
      const followed = await followJob(bridge, events, () => bridge['batch.retryCheck']({ batchId }), {
        endWhenContactLost: 'batch.retryCheck',
        onProgress: (progress) => {
          if (progress.kind === 'batch.retryCheck') setState((now) => (now.phase === 'checking' ? { ...now, progress } : now));
        },
      });
      job.current = followed;
      const finished = await followed.finished;
      if (job.current !== followed) return;
      job.current = null;
      if (finished.kind !== 'batch.retryCheck') return;
      if (finished.status === 'completed') setState({ phase: 'done', result: finished.result });
      else if (finished.status === 'cancelled') setState({ phase: 'cancelled' });
      else setState({ phase: 'failed', error: new PrivacyDeskError(finished.error) });
    } catch (error) {
      job.current = null;
      setState({ phase: 'failed', error });
    }
  }, [bridge, events, batchId]);

  // Checked as the panel opens; a walk under way stops when it closes.
  useEffect(() => {
    void check();
    return () => {
      const running = job.current;
      job.current = null;
      if (running) {
        running.detach();
        void running.cancel().catch(() => undefined);
      }
    };
  }, [check]);

  const cancel = useCallback(async () => {
    if (!job.current) return;
    setState((now) => (now.phase === 'checking' ? { ...now, cancelling: true } : now));
    await job.current.cancel();
  }, []);

  return { state, check, cancel };
}
