import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchJobSummary } from '../../../shared/batch';
import type { ProfileView } from '../../../shared/contract';
import { useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { ViewSection } from '../../components/view-section';
import { queryKeys } from '../../state/query-keys';
import { useAppInfo, useProfiles } from '../../state/use-profiles';
import { BatchCompose } from './batch-compose';
import { useBatchDraft } from './batch-draft-store';
import { BatchJobPanel } from './batch-job-panel';
import { DamagedJobs, JobsError, PastJobs, ResumeOffers } from './batch-jobs';
import { useBatchJobEvents, useBatchJobs, useDamagedBatchJobs } from './batch-jobs-store';
import { batchKeys } from './batch-keys';
import { BatchProgressPanel } from './batch-progress';
import { BatchResume } from './batch-resume';
import { BatchRetry } from './batch-retry';
import { useBatchRun } from './batch-run-store';

/**
 * Batch erasure in the console: one paste, one typed confirmation, one click.
 * The list → its preview → the typed phrase and Start → live progress → results;
 * unfinished jobs are offered for resuming when the screen opens; a finished job's failed items can be sent again.
 */
export function BatchView({ profile }: { profile: ProfileView }) {
  const { t } = useTranslation();
  const appInfo = useAppInfo().data;
  const profiles = useProfiles().data?.profiles ?? [];
  const queryClient = useQueryClient();
  const run = useBatchRun((s) => s.run);
  const dismiss = useBatchRun((s) => s.dismiss);
  const attach = useBatchRun((s) => s.attach);
  const events = useOptionalBridgeEvents();
  const clearDraft = useBatchDraft((s) => s.clear);
  const forgetConfirmation = useBatchDraft((s) => s.forgetConfirmation);
  const jobs = useBatchJobs();
  const damaged = useDamagedBatchJobs();
  useBatchJobEvents();
  const [resuming, setResuming] = useState<BatchJobSummary | null>(null);
  const [retrying, setRetrying] = useState<BatchJobSummary | null>(null);
  const [showing, setShowing] = useState<BatchJobSummary | null>(null);

  // A run that starts or ends changes the job list, the audit trail and the users of its profile.
  const runKey = run.phase === 'running' || run.phase === 'ended' ? `${run.phase}:${run.batchId}` : run.phase;
  useEffect(() => {
    if (run.phase === 'running') {
      setResuming(null);
      setRetrying(null);
      setShowing(null);
      void queryClient.invalidateQueries({ queryKey: batchKeys.jobs });
    }
    if (run.phase === 'ended') {
      void queryClient.invalidateQueries({ queryKey: batchKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
      void queryClient.invalidateQueries({ queryKey: ['users'] });
    }
    // runKey names the change; run itself changes with every progress event.
  }, [runKey, queryClient]);

  const busy = run.phase === 'running' || run.phase === 'starting';
  let main;
  if (run.phase === 'running') {
    main = <BatchProgressPanel />;
  } else if (run.phase === 'ended') {
    main = (
      <BatchJobPanel
        batchId={run.batchId}
        runError={run.error}
        closeLabel={t('batch.results.newBatch')}
        onClose={() => {
          clearDraft();
          dismiss();
        }}
        onResume={(job) => {
          dismiss();
          setResuming(job);
        }}
        onRetry={(job) => {
          dismiss();
          setRetrying(job);
        }}
      />
    );
  } else if (retrying) {
    main = (
      <BatchRetry
        job={retrying}
        profiles={profiles}
        appInfo={appInfo}
        onCancel={() => {
          // Declined: back to the job's results, never to a form armed with an older phrase.
          if (run.phase === 'failed') dismiss();
          setRetrying(null);
          setShowing(retrying);
        }}
      />
    );
  } else if (resuming) {
    main = (
      <BatchResume
        job={resuming}
        profiles={profiles}
        appInfo={appInfo}
        onCancel={() => {
          // Declined: back to the stopped job's results, never to a form armed with an older phrase.
          forgetConfirmation();
          if (run.phase === 'failed') dismiss();
          setResuming(null);
          setShowing(resuming);
        }}
      />
    );
  } else if (showing) {
    main = (
      <BatchJobPanel
        batchId={showing.batchId}
        closeLabel={t('common.close')}
        onClose={() => setShowing(null)}
        onResume={(job) => {
          setShowing(null);
          setResuming(job);
        }}
        onRetry={(job) => {
          setShowing(null);
          setRetrying(job);
        }}
      />
    );
  } else {
    main = <BatchCompose profile={profile} appInfo={appInfo} />;
  }

  return (
    <ViewSection id="batch" title={t('batch.title')} intro={t('batch.intro')}>
      {jobs.isError && <JobsError error={jobs.error} onRetry={() => void jobs.refetch()} />}
      {/* Offered while composing: a run, its results or a resume on screen already say what to do next. */}
      {jobs.data && (run.phase === 'idle' || run.phase === 'failed') && !resuming && !retrying && !showing && (
        <ResumeOffers
          jobs={jobs.data}
          busy={busy}
          onResume={(job) => {
            forgetConfirmation();
            setShowing(null);
            setResuming(job);
          }}
          onFollow={(job) => {
            if (events) attach(events, job.batchId);
          }}
        />
      )}
      {main}
      {/* "No batch yet" would be false beside a damaged one: the damaged list stands alone then. */}
      {jobs.data && (jobs.data.length > 0 || damaged.length === 0) && <PastJobs jobs={jobs.data} busy={busy} onShow={setShowing} />}
      <DamagedJobs jobs={damaged} />
    </ViewSection>
  );
}
