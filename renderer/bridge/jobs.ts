import type { BridgeClient, BridgeEvent } from '../../shared/contract';
import type { JobFinished, JobProgress } from '../../shared/jobs';
import type { BridgeEventClient } from './bridge-event-client';

export interface FollowedJob {
  jobId: string;
  /** Resolves with the job's one job.finished event. */
  finished: Promise<JobFinished>;
  /** Asks main to stop the job: true when it was running. `finished` still says how it ended. */
  cancel(): Promise<boolean>;
  /** Stops following (the screen went away); the job itself runs on. */
  detach(): void;
}

/**
 * Starts a job and follows it. Subscribes before starting, and keeps events
 * that arrive before the job id is known (a fast failure can overtake the
 * answer), so no event of the job is ever missed.
 *
 *   const walk = await followJob(bridge, events, () => bridge['users.walk']({ profileId }), { onProgress });
 */
export async function followJob(
  client: Pick<BridgeClient, 'jobs.cancel'>,
  events: BridgeEventClient,
  start: () => Promise<{ jobId: string }>,
  handlers: { onProgress?: (progress: JobProgress) => void } = {},
): Promise<FollowedJob> {
  let jobId: string | null = null;
  const early: BridgeEvent[] = [];
  let settle!: (finished: JobFinished) => void;
  const finished = new Promise<JobFinished>((resolve) => (settle = resolve));

  const take = (event: BridgeEvent) => {
    if (jobId === null) {
      early.push(event);
      return;
    }
    if (event.payload.jobId !== jobId) return;
    if (event.name === 'job.progress') {
      handlers.onProgress?.(event.payload);
    } else {
      detach();
      settle(event.payload);
    }
  };
  const stopProgress = events.subscribe('job.progress', (payload) => take({ name: 'job.progress', payload }));
  const stopFinished = events.subscribe('job.finished', (payload) => take({ name: 'job.finished', payload }));
  const detach = () => {
    stopProgress();
    stopFinished();
  };

  try {
    await events.ready();
    jobId = (await start()).jobId;
  } catch (error) {
    detach();
    throw error;
  }
  for (const event of early.splice(0)) take(event);
  const id = jobId;
  return {
    jobId: id,
    finished,
    cancel: async () => (await client['jobs.cancel']({ jobId: id })).cancelled,
    detach,
  };
}
