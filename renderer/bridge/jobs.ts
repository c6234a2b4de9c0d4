import type { BridgeClient, BridgeEvent } from '../../shared/contract';
import type { JobFinished, JobProgress } from '../../shared/jobs';
import { PrivacyDeskError, toErrorInfo } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { BridgeEventClient } from './bridge-event-client';

/** The jobs that only read: ended here when contact with the host is lost (followJob's endWhenContactLost). */
export type ReadJobKind = 'users.walk' | 'users.index' | 'batch.check' | 'batch.retryCheck' | 'reconcile';

/** "Lost contact … at 14:32", the time in the window's language (the page's lang, which the app keeps). */
function contactLost(since: string): PrivacyDeskError {
  const language = typeof document === 'undefined' ? undefined : document.documentElement.lang || undefined;
  const time = new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(new Date(since));
  return new PrivacyDeskError({ code: 'NETWORK', outcome: 'not-sent', text: msg('bridge.hostContactLost', { time }) });
}

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
  handlers: {
    onProgress?: (progress: JobProgress) => void;
    /**
     * A read (a walk of the users list, a check) of this kind ends here as failed when the host stops being
     * heard: its own end might never reach the page, and a read can simply be done again. A batch run is never
     * ended so: it may still be sending, and its screen says its state is unknown until contact comes back.
     */
    endWhenContactLost?: ReadJobKind;
  } = {},
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
  const kind = handlers.endWhenContactLost;
  const stopContact = kind
    ? events.onContact((contact) => {
        if (contact.state !== 'lost' || jobId === null) return;
        detach();
        settle({ jobId, kind, status: 'failed', error: toErrorInfo(contactLost(contact.since)) });
      })
    : () => {};
  const detach = () => {
    stopProgress();
    stopFinished();
    stopContact();
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
