import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_BATCH_CONCURRENCY, type BatchJobSummary } from '../../../shared/batch';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { PrivacyDeskError } from '../../../shared/errors';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { environmentOf, type Environment } from '../../state/use-profiles';
import { ErasureFacts } from '../erasure/erasure-facts';
import { BatchConfirm } from './batch-confirm';
import { JobHolder } from './batch-holder';
import { useBatchJob } from './batch-jobs-store';
import { OutcomeCounts } from './batch-results';
import { useBatchRun } from './batch-run-store';
import { msg } from '../../../shared/messages';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** The job's own profile as the facts need it; a profile since removed is judged by its address. */
export function jobProfile(job: BatchJobSummary, profiles: ProfileView[], appInfo?: AppInfo): { profile: ProfileView; environment: Environment } {
  const known = profiles.find((profile) => profile.id === job.profileId);
  if (known) return { profile: known, environment: environmentOf(known, appInfo) };
  const host = URL.canParse(job.baseUrl) ? new URL(job.baseUrl).hostname : '';
  const profile: ProfileView = { id: job.profileId, name: job.profileName, baseUrl: job.baseUrl, applicationName: '', isLocal: LOOPBACK.test(host), hasCredentials: false, credentialStorage: 'keychain' };
  return { profile, environment: environmentOf(profile, appInfo) };
}

/**
 * Resuming an unfinished job: its facts, its counts, and the typed phrase for the unfinished items only. The job
 * is read from the one record of jobs, so the phrase asked is for what Resume would send now; a phrase typed for
 * an earlier count, or used once, is typed again.
 */
export function BatchResume({ job: offered, profiles, appInfo, onCancel }: { job: BatchJobSummary; profiles: ProfileView[]; appInfo?: AppInfo; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const run = useBatchRun((s) => s.run);
  const startRun = useBatchRun((s) => s.start);
  const job = useBatchJob(offered.batchId).data ?? offered;
  const [typedFor, setTypedFor] = useState({ text: '', unfinished: job.counts.unfinished });
  const typed = typedFor.unfinished === job.counts.unfinished ? typedFor.text : '';
  const { profile, environment } = jobProfile(job, profiles, appInfo);
  const n = (value: number) => formatNumber(value, i18n.language);
  const resumable = job.state === 'unfinished' && job.counts.unfinished > 0;

  const resume = () => {
    const confirmation = typed;
    // One phrase, one click: whatever the answer, another Resume is confirmed again.
    setTypedFor({ text: '', unfinished: job.counts.unfinished });
    if (!events) {
      useBatchRun.setState({ run: { phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) } });
      return;
    }
    void startRun(bridge, events, () => bridge['batch.resume']({ batchId: job.batchId, concurrency: DEFAULT_BATCH_CONCURRENCY, confirmation }));
  };

  return (
    <CardSection title={t('batch.resume.heading', { time: formatDateTime(job.createdAt, i18n.language) })} hint={t('batch.resume.hint', { unfinished: n(job.counts.unfinished), total: n(job.total) })} className={`batch-card batch-resume ${environment === 'live' ? 'batch-confirm-card--live' : ''}`}>
      <ErasureFacts action={job.action} profile={profile} environment={environment} />
      <OutcomeCounts counts={job.counts} />
      {resumable ? (
        <BatchConfirm action={job.action} count={job.counts.unfinished} typed={typed} onTyped={(text) => setTypedFor({ text, unfinished: job.counts.unfinished })} onStart={resume} starting={run.phase === 'starting'} startLabel={t('batch.resume.start')}>
          {run.phase === 'failed' && <ErrorPanel title={t('batch.resume.failed')} error={run.error} />}
        </BatchConfirm>
      ) : (
        // Run elsewhere or finished since it was offered: nothing to confirm here.
        <p className="callout callout--warning" role="status">
          {t('batch.resume.notResumable', { state: t(`batch.jobs.states.${job.state}`) })}
          <JobHolder job={job} />
        </p>
      )}
      <div>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </CardSection>
  );
}
