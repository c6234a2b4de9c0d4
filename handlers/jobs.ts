import { randomUUID } from 'node:crypto';
import { toErrorInfo, isPrivacyDeskError } from '../shared/errors';
import type { JobFinished, JobKind, JobProgress, JobShapes } from '../shared/jobs';
import type { BridgeEventSink } from './bridge-event-hub';

/** What a job's work gets: its id, the signal to watch between steps, and a way to report a step. */
export interface JobControl<K extends JobKind> {
  jobId: string;
  signal: AbortSignal;
  progress(update: JobShapes[K]['progress']): void;
}

export interface JobStartOptions {
  /** A batch run's job id, named on its cancelled or failed job.finished (a completed one has it in its result). */
  batchId?: string;
}

export interface JobRegistry {
  /** Runs `work` as a job and answers its id at once; events report it from then on. */
  start<K extends JobKind>(kind: K, work: (job: JobControl<K>) => Promise<JobShapes[K]['result']>, options?: JobStartOptions): string;
  /** true when the job was running and has been told to stop; false when there is no such running job. */
  cancel(jobId: string): boolean;
  /** Tells every running job to stop (the runtime is closing). */
  cancelAll(): void;
  /** Resolves once every job of these kinds running now has sent its job.finished. */
  settled(kinds: readonly JobKind[]): Promise<void>;
}

interface RunningJob {
  kind: JobKind;
  controller: AbortController;
  /** Resolves after the job's job.finished is sent. */
  ended: Promise<void>;
}

/**
 * Jobs live in the main process, each with its own AbortController. Every job
 * ends with exactly one `job.finished`: completed when its work returned,
 * cancelled when it stopped after a cancel, failed otherwise. A finished job
 * is forgotten at once, so cancelling it answers false.
 */
export function createJobRegistry(emit: BridgeEventSink, newId: () => string = randomUUID): JobRegistry {
  const running = new Map<string, RunningJob>();

  async function run<K extends JobKind>(jobId: string, kind: K, controller: AbortController, work: (job: JobControl<K>) => Promise<JobShapes[K]['result']>, options: JobStartOptions): Promise<void> {
    const named = options.batchId !== undefined ? { batchId: options.batchId } : {};
    const progress = (update: JobShapes[K]['progress']) => {
      if (running.has(jobId)) emit('job.progress', { ...update, jobId, kind } as JobProgress);
    };
    let finished: JobFinished;
    try {
      const result = await work({ jobId, signal: controller.signal, progress });
      finished = { jobId, kind, status: 'completed', result } as JobFinished;
    } catch (error) {
      if (controller.signal.aborted) {
        finished = { jobId, kind, status: 'cancelled', ...named } as JobFinished;
      } else {
        if (!isPrivacyDeskError(error)) console.error(`[privacy-desk] job ${kind} failed with an unexpected ${error instanceof Error ? error.name : typeof error}`);
        finished = { jobId, kind, status: 'failed', error: toErrorInfo(error), ...named } as JobFinished;
      }
    }
    running.delete(jobId);
    emit('job.finished', finished);
  }

  return {
    start(kind, work, options = {}) {
      const jobId = newId();
      const controller = new AbortController();
      const job: RunningJob = { kind, controller, ended: Promise.resolve() };
      running.set(jobId, job);
      job.ended = run(jobId, kind, controller, work, options);
      return jobId;
    },
    cancel(jobId) {
      const job = running.get(jobId);
      if (!job) return false;
      job.controller.abort();
      return true;
    },
    cancelAll() {
      for (const job of running.values()) job.controller.abort();
    },
    async settled(kinds) {
      await Promise.all([...running.values()].filter((job) => kinds.includes(job.kind)).map((job) => job.ended));
    },
  };
}
