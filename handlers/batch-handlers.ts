import type { BatchJobSummary, BatchProgress } from '../shared/batch';
import { invalidInput } from '../shared/errors';
import type { BatchRun, BatchRunControl, DeskBatch } from '../core/batch/batch-types';
import { createPauseSwitch } from '../core/batch/pause-switch';
import type { JobRegistry } from './jobs';
import type { AreaHandlers } from './types';
import { msg } from '../shared/messages';
import type { RequestStore } from '../core/requests/request-store';
import { linkBatchJob } from './request-link';

type BatchMethod = 'batch.preview' | 'batch.discard' | 'batch.check' | 'batch.start' | 'batch.resume' | 'batch.retryCheck' | 'batch.retry' | 'batch.setPaused' | 'batch.list' | 'batch.get' | 'batch.results';

/** What the batch handlers use: desk.batch and the job registry (HandlerContext fits). */
export interface BatchHandlerContext {
  /** requests: the register a job started for a request is linked to (the app's Desk has it; a batch-only test may not). */
  desk: { batch: DeskBatch; requests?: Pick<RequestStore, 'get' | 'apply'> };
  jobs: JobRegistry;
}

/**
 * The bridge side of batch erasure (shared/batch.ts, shared/batch-retry.ts). start, resume and retry first
 * ask desk.batch to begin, so a wrong confirmation or an unknown draft or job
 * rejects the call itself and nothing runs; only a run that has begun becomes
 * a 'batch.run' job, whose pause switch is kept here until the job ends.
 */
export function batchHandlers({ desk, jobs }: BatchHandlerContext): AreaHandlers<BatchMethod> {
  const pauses = new Map<string, ReturnType<typeof createPauseSwitch>>();
  /** batch id → the bridge job running it here: served with the job, so any window can pause or cancel it. */
  const runningJobs = new Map<string, string>();
  const withJobId = (job: BatchJobSummary): BatchJobSummary => {
    const jobId = runningJobs.get(job.batchId);
    return job.live && jobId ? { ...job, live: { ...job.live, jobId } } : job;
  };

  /** Begins a run under our own controls, then hands it to a job; answers once the job exists. */
  async function runAsJob(begin: (control: BatchRunControl) => Promise<BatchRun>): Promise<{ jobId: string; batchId: string }> {
    const controller = new AbortController();
    const pause = createPauseSwitch();
    // Progress can come before the job exists (the run starts inside begin): the latest is kept and sent first.
    let report: ((progress: BatchProgress) => void) | undefined;
    let early: BatchProgress | undefined;
    const run = await begin({
      signal: controller.signal,
      pause,
      onProgress: (progress) => {
        if (report) report(progress);
        else early = progress;
      },
    });
    // The job attaches to run.finished in this same turn; this only keeps a rejection from counting as unhandled meanwhile.
    run.finished.catch(() => undefined);
    const jobId = jobs.start(
      'batch.run',
      async (job) => {
        const cancel = () => controller.abort();
        if (job.signal.aborted) cancel();
        job.signal.addEventListener('abort', cancel, { once: true });
        report = (progress) => job.progress(progress);
        if (early) report(early);
        try {
          return await run.finished;
        } finally {
          job.signal.removeEventListener('abort', cancel);
          pauses.delete(job.jobId);
          runningJobs.delete(run.batchId);
        }
      },
      { batchId: run.batchId },
    );
    pauses.set(jobId, pause);
    runningJobs.set(run.batchId, jobId);
    return { jobId, batchId: run.batchId };
  }

  return {
    'batch.preview': async ({ text, kind, separator, uidColumn, referenceColumn, hasHeader, sourceName }) =>
      desk.batch.preview({
        source: text,
        kind,
        sourceName,
        ...(separator !== undefined ? { separator } : {}),
        ...(uidColumn !== undefined ? { uidColumn } : {}),
        ...(referenceColumn !== undefined ? { referenceColumn } : {}),
        ...(hasHeader !== undefined ? { hasHeader } : {}),
      }),
    'batch.discard': async ({ draftId }) => ({ discarded: await desk.batch.discard(draftId) }),
    'batch.check': async ({ draftId, profileId }) => ({
      jobId: jobs.start('batch.check', (job) =>
        desk.batch.check(
          { draftId, profileId },
          {
            signal: job.signal,
            onProgress: ({ page, collected, totalPages }) => job.progress({ page, collected, ...(totalPages !== undefined ? { totalPages } : {}) }),
          },
        ),
      ),
    }),
    'batch.start': async ({ draftId, profileId, action, logoutFirst, reference, concurrency, confirmation, useTrimmed, requestId }) => {
      // As the CLI's batch --request: an id the register does not hold is refused before anything is sent.
      const register = desk.requests;
      if (requestId !== undefined && !register) throw new Error('batch.start: a requestId was given but this runtime has no request register.');
      const linkTo = requestId === undefined || !register ? undefined : (await register.get(requestId)).id;
      const sentReference = reference ?? linkTo;
      const started = await runAsJob((control) =>
        desk.batch.start({ draftId, profileId, action, logoutFirst, concurrency, confirmation, useTrimmed, ...(sentReference !== undefined ? { reference: sentReference } : {}) }, control),
      );
      if (linkTo && register) await linkBatchJob(register, linkTo, started.batchId);
      return started;
    },
    'batch.resume': async ({ batchId, concurrency, confirmation }) => runAsJob((control) => desk.batch.resume(batchId, { concurrency, confirmation }, control)),
    'batch.retryCheck': async ({ batchId }) => ({
      jobId: jobs.start('batch.retryCheck', (job) =>
        desk.batch.checkFailed(batchId, {
          signal: job.signal,
          onProgress: ({ page, collected, totalPages }) => job.progress({ page, collected, ...(totalPages !== undefined ? { totalPages } : {}) }),
        }),
      ),
    }),
    'batch.retry': async ({ batchId, checkId, concurrency, confirmation }) => runAsJob((control) => desk.batch.retry(batchId, { checkId, concurrency, confirmation }, control)),
    'batch.setPaused': async ({ jobId, paused }) => {
      const pause = pauses.get(jobId);
      if (!pause) {
        throw invalidInput(msg('batch.notRunningHere', { job: jobId.slice(0, 100) }));
      }
      if (paused) pause.pause();
      else pause.resume();
      return { paused: pause.paused };
    },
    'batch.list': async () => {
      const { jobs, damaged } = await desk.batch.listAll();
      return { jobs: jobs.map(withJobId), damaged };
    },
    'batch.get': async ({ batchId }) => {
      const job = (await desk.batch.list()).find((candidate) => candidate.batchId === batchId);
      return { job: job ? withJobId(job) : null };
    },
    'batch.results': async ({ batchId, format }) => desk.batch.exportResults(batchId, format),
  };
}
