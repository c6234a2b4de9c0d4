import { create } from 'zustand';
import type { BatchRunResult } from '../../../shared/batch';
import type { BridgeClient } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import type { JobFinished, JobProgress } from '../../../shared/jobs';
import type { BridgeEventClient } from '../../bridge/bridge-event-client';
import { followJob, type FollowedJob } from '../../bridge/jobs';
import { useBatchDraft } from './batch-draft-store';

/**
 * Which run this window shows, and what the operator asked of it. How the job stands (its state, counts,
 * figures) is not kept here: every screen reads it from the one record of jobs (batch-jobs-store.ts).
 */
export type BatchRunState =
  | { phase: 'idle' }
  | { phase: 'starting' }
  /** eventsMissed: the host was not heard for a while; the run's end may have gone by unheard (its record then says so). */
  | { phase: 'running'; jobId: string | null; batchId: string; cancelling: boolean; eventsMissed?: boolean }
  /** completed: result.state says finished or cancelled; cancelled/failed: the job stopped before reporting counts. */
  | { phase: 'ended'; batchId: string; result?: BatchRunResult; error?: ErrorInfo }
  | { phase: 'failed'; error: unknown };

type BatchRunFinished = Extract<JobFinished, { kind: 'batch.run' }>;

interface BatchRunStore {
  run: BatchRunState;
  /** Starts (batch.start / batch.resume) and follows the run; the follow outlives the screen (switching tabs). */
  start(bridge: BridgeClient, events: BridgeEventClient, call: () => Promise<{ jobId: string; batchId: string }>): Promise<void>;
  /** Follows a run this window did not start (it was started before a reload): its events name the batch. */
  attach(events: BridgeEventClient, batchId: string): void;
  /** A followed job that another process ran has ended (seen in batch.get): show its results. */
  ended(batchId: string): void;
  /** Pauses or resumes the run (its bridge job: this window's, or the one the job record names); answers whether it is paused. */
  setPaused(bridge: BridgeClient, jobId: string, paused: boolean): Promise<boolean>;
  cancel(bridge: BridgeClient, jobId: string): Promise<void>;
  /** The cancel was refused or never sent: the run goes on, Pause and Cancel can be used again. */
  cancelRefused(batchId: string): void;
  /** Back to a new batch. */
  dismiss(): void;
}

// The follow lives outside React: a run keeps being followed while the operator looks at another view.
let followed: FollowedJob | null = null;
let detachAttached: (() => void) | null = null;
let stopWatchingContact: (() => void) | null = null;

function stopFollowing() {
  followed?.detach();
  followed = null;
  detachAttached?.();
  detachAttached = null;
  stopWatchingContact?.();
  stopWatchingContact = null;
}

/** A run starts, is followed or ends here: a phrase typed before confirms what the operator saw then, not what comes next. */
function forgetTypedPhrase() {
  useBatchDraft.getState().forgetConfirmation();
}

function endedState(batchId: string, finished: BatchRunFinished): BatchRunState {
  if (finished.status === 'completed') return { phase: 'ended', batchId: finished.result.batchId, result: finished.result };
  if (finished.status === 'failed') return { phase: 'ended', batchId: finished.batchId ?? batchId, error: finished.error };
  return { phase: 'ended', batchId: finished.batchId ?? batchId };
}

export const useBatchRun = create<BatchRunStore>()((set, get) => {
  const onProgress = (batchId: string) => (progress: JobProgress) => {
    if (progress.kind !== 'batch.run' || progress.batchId !== batchId) return;
    const run = get().run;
    if (run.phase !== 'running' || run.batchId !== batchId || run.jobId) return;
    // Followed from its events (started before a reload): they name its bridge job.
    set({ run: { ...run, jobId: progress.jobId } });
  };

  /** While a run is followed: a loss of contact means its events (its end too) may be missed from then on. */
  const watchContact = (events: BridgeEventClient) => {
    stopWatchingContact?.();
    stopWatchingContact = events.onContact((contact) => {
      const run = get().run;
      if (contact.state === 'lost' && run.phase === 'running' && !run.eventsMissed) set({ run: { ...run, eventsMissed: true } });
    });
  };

  return {
    run: { phase: 'idle' },

    async start(bridge, events, call) {
      stopFollowing();
      forgetTypedPhrase();
      set({ run: { phase: 'starting' } });
      let batchId = '';
      try {
        const job = await followJob(
          bridge,
          events,
          async () => {
            const started = await call();
            batchId = started.batchId;
            // Progress may arrive before followJob answers: be in the running phase first.
            set({ run: { phase: 'running', jobId: started.jobId, batchId, cancelling: false } });
            watchContact(events);
            return started;
          },
          { onProgress: (progress) => onProgress(batchId)(progress) },
        );
        followed = job;
        const finished = await job.finished;
        if (followed === job) followed = null;
        if (finished.kind !== 'batch.run') return;
        const run = get().run;
        if (run.phase === 'running' && run.batchId === batchId) {
          forgetTypedPhrase();
          set({ run: endedState(batchId, finished) });
        }
      } catch (error) {
        forgetTypedPhrase();
        set({ run: { phase: 'failed', error } });
      }
    },

    attach(events, batchId) {
      stopFollowing();
      forgetTypedPhrase();
      set({ run: { phase: 'running', jobId: null, batchId, cancelling: false } });
      watchContact(events);
      const stopProgress = events.subscribe('job.progress', (payload) => onProgress(batchId)(payload));
      const stopFinished = events.subscribe('job.finished', (payload) => {
        const run = get().run;
        if (payload.kind !== 'batch.run' || run.phase !== 'running' || run.batchId !== batchId) return;
        const named = payload.status === 'completed' ? payload.result.batchId : payload.batchId;
        if (named !== batchId && payload.jobId !== run.jobId) return;
        stopFollowing();
        forgetTypedPhrase();
        set({ run: endedState(batchId, payload) });
      });
      detachAttached = () => {
        stopProgress();
        stopFinished();
      };
    },

    ended(batchId) {
      const run = get().run;
      if (run.phase !== 'running' || run.batchId !== batchId) return;
      stopFollowing();
      forgetTypedPhrase();
      set({ run: { phase: 'ended', batchId } });
    },

    async setPaused(bridge, jobId, paused) {
      return (await bridge['batch.setPaused']({ jobId, paused })).paused;
    },

    async cancel(bridge, jobId) {
      const run = get().run;
      if (run.phase === 'running') set({ run: { ...run, cancelling: true } });
      await bridge['jobs.cancel']({ jobId });
    },

    cancelRefused(batchId) {
      const run = get().run;
      if (run.phase === 'running' && run.batchId === batchId) set({ run: { ...run, cancelling: false } });
    },

    dismiss() {
      stopFollowing();
      forgetTypedPhrase();
      set({ run: { phase: 'idle' } });
    },
  };
});

/** For tests: forget every run (the store is a module singleton). */
export function resetBatchRun() {
  stopFollowing();
  useBatchRun.setState({ run: { phase: 'idle' } });
}
