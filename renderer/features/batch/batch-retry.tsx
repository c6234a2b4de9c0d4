import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_BATCH_CONCURRENCY, type BatchJobSummary } from '../../../shared/batch';
import type { BatchRetryCheck } from '../../../shared/batch-retry';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { PrivacyDeskError } from '../../../shared/errors';
import { msg } from '../../../shared/messages';
import { useBridge, useOptionalBridgeEvents } from '../../bridge/bridge-context';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { ErasureFacts } from '../erasure/erasure-facts';
import { BatchConfirm } from './batch-confirm';
import { useBatchJob } from './batch-jobs-store';
import { OutcomeCounts } from './batch-results';
import { jobProfile } from './batch-resume';
import { useBatchRun } from './batch-run-store';
import { useRetryCheck, type RetryCheckState } from './use-retry-check';

/**
 * Sending a finished job's failed items again: the check first (which failed uids are still on the service; the
 * others are recorded, never sent), then the typed phrase for the items it sends, as Resume asks it. The new
 * attempts belong to the same job: its results, its counts.
 */
export function BatchRetry({ job: offered, profiles, appInfo, onCancel }: { job: BatchJobSummary; profiles: ProfileView[]; appInfo?: AppInfo; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const events = useOptionalBridgeEvents();
  const run = useBatchRun((s) => s.run);
  const startRun = useBatchRun((s) => s.start);
  const job = useBatchJob(offered.batchId).data ?? offered;
  const { state, check, cancel } = useRetryCheck(job.batchId);
  const found = state.phase === 'done' ? state.result : undefined;
  // A phrase confirms what one check found: another check (or a used phrase) is typed again.
  const [typedFor, setTypedFor] = useState({ text: '', checkId: '' });
  const typed = found && typedFor.checkId === found.checkId ? typedFor.text : '';
  const { profile, environment } = jobProfile(job, profiles, appInfo);
  const n = (value: number) => formatNumber(value, i18n.language);
  const retryable = job.state === 'finished' && job.counts.failed > 0;

  const send = (checked: BatchRetryCheck) => {
    const confirmation = typed;
    setTypedFor({ text: '', checkId: checked.checkId });
    if (!events) {
      useBatchRun.setState({ run: { phase: 'failed', error: new PrivacyDeskError({ code: 'INTERNAL', text: msg('bridge.noEventChannel') }) } });
      return;
    }
    void startRun(bridge, events, () => bridge['batch.retry']({ batchId: job.batchId, checkId: checked.checkId, concurrency: DEFAULT_BATCH_CONCURRENCY, confirmation }));
  };
  const failedToStart = run.phase === 'failed' && <ErrorPanel title={t('batch.retry.failed')} error={run.error} />;

  return (
    <CardSection title={t('batch.retry.heading', { time: formatDateTime(job.createdAt, i18n.language) })} hint={t('batch.retry.hint', { count: job.counts.failed, failed: n(job.counts.failed), total: n(job.total) })} className={`batch-card batch-retry ${environment === 'live' ? 'batch-confirm-card--live' : ''}`}>
      <ErasureFacts action={job.action} profile={profile} environment={environment} />
      <OutcomeCounts counts={job.counts} />
      {!retryable && !found ? (
        // Run elsewhere, or its failed items sent again since it was offered: nothing to confirm here.
        <p className="callout callout--warning" role="status">
          {t('batch.retry.notRetryable', { state: t(`batch.jobs.states.${job.state}`) })}
        </p>
      ) : (
        <RetryCheckFindings state={state} onCheck={() => void check()} onCancel={() => void cancel()} />
      )}
      {found && found.toSend > 0 && (
        <BatchConfirm action={job.action} count={found.toSend} typed={typed} onTyped={(text) => setTypedFor({ text, checkId: found.checkId })} onStart={() => send(found)} starting={run.phase === 'starting'} startLabel={t('batch.retry.start')}>
          {failedToStart}
        </BatchConfirm>
      )}
      {found && found.toSend === 0 && (
        // Nothing is sent: what the check found is recorded, with no phrase to type.
        <div className="batch-confirm__actions">
          <button type="button" className="button button--primary" onClick={() => send(found)} disabled={run.phase === 'starting'}>
            {t('batch.retry.record')}
          </button>
          {failedToStart}
        </div>
      )}
      <div>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </CardSection>
  );
}

/** The check as it goes, and what it found: how many are sent again, and which are no longer on the service. */
function RetryCheckFindings({ state, onCheck, onCancel }: { state: RetryCheckState; onCheck: () => void; onCancel: () => void }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  if (state.phase === 'checking') {
    const { progress } = state;
    return (
      <div className="batch-check__progress" role="status">
        <span>
          {progress
            ? progress.totalPages !== undefined
              ? t('batch.check.progressOf', { page: progress.page, total: progress.totalPages, users: n(progress.collected) })
              : t('batch.check.progress', { page: progress.page, users: n(progress.collected) })
            : t('batch.retry.checking')}
        </span>
        {progress?.totalPages ? <progress max={progress.totalPages} value={progress.page} /> : null}
        <button type="button" className="button button--small" onClick={onCancel} disabled={state.cancelling}>
          {state.cancelling ? t('batch.check.cancelling') : t('common.cancel')}
        </button>
      </div>
    );
  }
  if (state.phase !== 'done') {
    return (
      <div className="batch-check__start">
        {state.phase === 'failed' ? <ErrorPanel title={t('batch.retry.checkFailed')} error={state.error} /> : <p className="muted" role="status">{t('batch.retry.checkCancelled')}</p>}
        <button type="button" className="button button--small" onClick={onCheck}>
          {t('batch.check.again')}
        </button>
      </div>
    );
  }
  const { result } = state;
  const { gone } = result;
  return (
    <div className="batch-check__result" role="status">
      <p>
        {result.toSend === 0 ? t('batch.retry.noneThere', { count: result.failed, formatted: n(result.failed) }) : t('batch.retry.stillThere', { count: result.toSend, toSend: n(result.toSend), failed: n(result.failed) })}{' '}
        <span className="muted small">{t('batch.check.walked', { users: n(result.users) })}</span>
      </p>
      {gone.count > 0 && (
        <div className="batch-check__missing">
          <h4 className="batch-ends__label">{t('batch.retry.goneHeading', { count: gone.count, formatted: n(gone.count) })}</h4>
          <ul className="batch-ends__list">
            {gone.sample.map((uid, index) => (
              <li key={`${index}:${uid}`} className="uid-text">
                <VisibleUid uid={uid} inline />
              </li>
            ))}
          </ul>
          {gone.count > gone.sample.length && <p className="muted small">{t('batch.check.trimmableMore', { count: gone.count - gone.sample.length })}</p>}
          <p className="muted small">
            {[gone.doneBeforeInterruption > 0 ? t('batch.retry.goneDoneBefore', { count: gone.doneBeforeInterruption, formatted: n(gone.doneBeforeInterruption) }) : '', gone.notFound > 0 ? t('batch.retry.goneNotFound', { count: gone.notFound, formatted: n(gone.notFound) }) : '']
              .filter(Boolean)
              .join(' ')}
          </p>
        </div>
      )}
    </div>
  );
}
