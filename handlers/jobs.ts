import { randomUUID } from 'node:crypto';
import { toErrorInfo, isPrivacyDeskError } from '../shared/errors';
import type { JobFinished, JobKind, JobProgress, JobShapes } from '../shared/jobs';
import type { BridgeEventSink } from './bridge-event-hub';

/** What a job's work gets: the signal to watch between steps, and a way to report a step. */
export interface JobControl<K extends JobKind> {
  signal: AbortSignal;
  progress(update: JobShapes[K]['progress']): void;
}

export interface JobRegistry {
  /** Runs `work` as a job and answers its id at once; events report it from then on. */
  start<K extends JobKind>(kind: K, work: (job: JobControl<K>) => Promise<JobShapes[K]['result']>): string;
  /** true when the job was running and has been told to stop; false when there is no such running job. */
  cancel(jobId: string): boolean;
  /** Tells every running job to stop (the runtime is closing). */
  cancelAll(): void;
}

/**
 * Jobs live in the main process, each with its own AbortController. Every job
 * ends with exactly one `job.finished`: completed when its work returned,
 * cancelled when it stopped after a cancel, failed otherwise. A finished job
 * is forgotten at once, so cancelling it answers false.
 */
export function createJobRegistry(emit: BridgeEventSink, newId: () => string = randomUUID): JobRegistry {
  const running = new Map<string, AbortController>();

  async function run<K extends JobKind>(jobId: string, kind: K, controller: AbortController, work: (job: JobControl<K>) => Promise<JobShapes[K]['result']>): Promise<void> {
    const progress = (update: JobShapes[K]['progress']) => {
      if (running.has(jobId)) emit('job.progress', { ...update, jobId, kind } as JobProgress);
    };
    let finished: JobFinished;
    try {
      const result = await work({ signal: controller.signal, progress });
      finished = { jobId, kind, status: 'completed', result } as JobFinished;
    } catch (error) {
      if (controller.signal.aborted) {
        finished = { jobId, kind, status: 'cancelled' } as JobFinished;
      } else {
        if (!isPrivacyDeskError(error)) console.error(`[privacy-desk] job ${kind} failed with an unexpected ${error instanceof Error ? error.name : typeof error}`);
        finished = { jobId, kind, status: 'failed', error: toErrorInfo(error) } as JobFinished;
      }
    }
    running.delete(jobId);
    emit('job.finished', finished);
  }

  return {
    start(kind, work) {
      const jobId = newId();
      const controller = new AbortController();
      running.set(jobId, controller);
      void run(jobId, kind, controller, work);
      return jobId;
    },
    cancel(jobId) {
      const controller = running.get(jobId);
      if (!controller) return false;
      controller.abort();
      return true;
    },
    cancelAll() {
      for (const controller of running.values()) controller.abort();
    },
  };
}
