import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isBeingRun, jobStateOfRun, type BatchJobDamage, type BatchJobLive, type BatchJobSummary, type BatchProgress } from '../../../shared/batch';
import type { BridgeClient } from '../../../shared/contract';
import type { JobFinished } from '../../../shared/jobs';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { batchKeys } from './batch-keys';

/**
 * The window's one record of every batch job: the core's answer to batch.list (journal, run lock and,
 * for a job this app runs, its run's latest report), kept up to date by the progress and end events.
 * Every batch screen — the progress panel, the results, the offers, the jobs table — reads a job from
 * here, so no two of them can say different things. Of two views of a job, the one with the higher
 * revision is kept: a list answer read before an event cannot overwrite it.
 */

/** While a job runs in another process (the CLI), no event comes: the list is read again this often. */
export const ELSEWHERE_REFRESH_MS = 2000;

type BatchRunProgress = BatchProgress & { jobId?: string };
type BatchRunFinished = Extract<JobFinished, { kind: 'batch.run' }>;

/** A fresh list, each job keeping the view already held when that one is newer. */
export function mergeJobs(held: readonly BatchJobSummary[] | undefined, fetched: readonly BatchJobSummary[]): BatchJobSummary[] {
  if (!held) return [...fetched];
  const byId = new Map(held.map((job) => [job.batchId, job]));
  return fetched.map((job) => {
    const mine = byId.get(job.batchId);
    return mine && mine.revision > job.revision ? mine : job;
  });
}

/** A progress event: the job takes its counts and its run's state, unless what is held is newer. */
export function applyProgress(jobs: readonly BatchJobSummary[], progress: BatchRunProgress): BatchJobSummary[] | null {
  const index = jobs.findIndex((job) => job.batchId === progress.batchId);
  if (index < 0) return null;
  const job = jobs[index] as BatchJobSummary;
  const revision = progress.revision ?? job.revision;
  if (progress.revision !== undefined && progress.revision <= job.revision) return [...jobs];
  const live: BatchJobLive = { state: progress.state, inFlight: progress.inFlight, ratePerSecond: progress.ratePerSecond };
  if (progress.secondsLeft !== undefined) live.secondsLeft = progress.secondsLeft;
  if (progress.waitSeconds !== undefined) live.waitSeconds = progress.waitSeconds;
  // Still paused: since the moment already known, when this report does not say it.
  const pausedSince = progress.pausedSince ?? (progress.state === 'paused' && job.live?.state === 'paused' ? job.live.pausedSince : undefined);
  if (pausedSince !== undefined) live.pausedSince = pausedSince;
  const jobId = progress.jobId ?? job.live?.jobId;
  if (jobId) live.jobId = jobId;
  const next = [...jobs];
  next[index] = { ...job, state: jobStateOfRun(progress.state), counts: { ...progress.counts }, live, revision };
  return next;
}

/** A run's end: its final counts and state at once (the list read next confirms them). */
export function applyFinished(jobs: readonly BatchJobSummary[], finished: BatchRunFinished): BatchJobSummary[] {
  if (finished.status !== 'completed') return [...jobs];
  const { result } = finished;
  return jobs.map((job) => {
    if (job.batchId !== result.batchId) return job;
    const { live: _live, ...rest } = job;
    void _live;
    return { ...rest, counts: { ...result.counts }, state: result.counts.unfinished === 0 ? 'finished' : 'unfinished' };
  });
}

/**
 * The operator's Pause / Resume answered, or Cancel asked: the job says so at once on every screen (the run's
 * own report follows). Paused here, since now; running or stopping, a pause's time no longer applies.
 */
export function setLiveState(queryClient: QueryClient, batchId: string, state: BatchJobLive['state']): void {
  queryClient.setQueryData<BatchJobSummary[]>(batchKeys.jobs, (jobs) =>
    jobs?.map((job) => {
      if (job.batchId !== batchId || !job.live) return job;
      const { pausedSince, ...live } = job.live;
      const since = state === 'paused' ? { pausedSince: pausedSince ?? new Date().toISOString() } : {};
      return { ...job, state: jobStateOfRun(state), live: { ...live, ...since, state } };
    }),
  );
}

function jobsQuery(bridge: BridgeClient, queryClient: QueryClient) {
  return {
    queryKey: batchKeys.jobs,
    queryFn: async () => {
      const { jobs, damaged = [] } = await bridge['batch.list']({});
      queryClient.setQueryData(batchKeys.damaged, damaged);
      return mergeJobs(queryClient.getQueryData<BatchJobSummary[]>(batchKeys.jobs), jobs);
    },
    // Coming back to the screen, the list is read again: events were not followed meanwhile.
    refetchOnMount: 'always' as const,
    refetchInterval: (query: { state: { data?: BatchJobSummary[] } }) => (query.state.data?.some((job) => isBeingRun(job.state) && !job.live) ? ELSEWHERE_REFRESH_MS : false),
  };
}

/** Every job, newest first. */
export function useBatchJobs() {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useQuery(jobsQuery(bridge, queryClient));
}

/** One job, from the same record (undefined while the list loads, null when there is no such job). */
export function useBatchJob(batchId: string | null) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  return useQuery({ ...jobsQuery(bridge, queryClient), select: (jobs: BatchJobSummary[]) => jobs.find((job) => job.batchId === batchId) ?? null, enabled: batchId !== null });
}

/** The jobs whose files cannot be used, from the same batch.list answers as useBatchJobs (which reads them). */
export function useDamagedBatchJobs(): BatchJobDamage[] {
  return useQuery({ queryKey: batchKeys.damaged, queryFn: () => [] as BatchJobDamage[], enabled: false, staleTime: Infinity }).data ?? [];
}

/** While the batch screen is open: progress and end events of every batch run update the record. */
export function useBatchJobEvents(): void {
  const events = useOptionalBridgeEvents();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!events) return;
    const stopProgress = events.subscribe('job.progress', (payload) => {
      if (payload.kind !== 'batch.run') return;
      const jobs = queryClient.getQueryData<BatchJobSummary[]>(batchKeys.jobs);
      const next = jobs ? applyProgress(jobs, payload) : null;
      // A job not in the record yet (it has just started): the list is read again, with the run's report.
      if (next) queryClient.setQueryData(batchKeys.jobs, next);
      else void queryClient.invalidateQueries({ queryKey: batchKeys.jobs });
    });
    const stopFinished = events.subscribe('job.finished', (payload) => {
      if (payload.kind !== 'batch.run') return;
      const jobs = queryClient.getQueryData<BatchJobSummary[]>(batchKeys.jobs);
      if (jobs) queryClient.setQueryData(batchKeys.jobs, applyFinished(jobs, payload));
      void queryClient.invalidateQueries({ queryKey: batchKeys.all });
    });
    // Back in contact with the host: the events sent meanwhile are lost, so every job is read again.
    const stopContact = events.onContact((contact) => {
      if (contact.state === 'connected') void queryClient.invalidateQueries({ queryKey: batchKeys.all });
    });
    return () => {
      stopProgress();
      stopFinished();
      stopContact();
    };
  }, [events, queryClient]);
}
