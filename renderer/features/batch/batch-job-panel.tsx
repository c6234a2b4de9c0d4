import { useTranslation } from 'react-i18next';
import type { BatchJobSummary } from '../../../shared/batch';
import type { ErrorInfo } from '../../../shared/errors';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useBatchJob } from './batch-jobs-store';
import { BatchResultsTable, OutcomeCounts, useExportResults } from './batch-results';

interface JobPanelProps {
  batchId: string;
  /** The run that just ended here: its error, when it stopped on one. */
  runError?: ErrorInfo;
  onClose: () => void;
  closeLabel: string;
  onResume: (job: BatchJobSummary) => void;
  /** "Send the failed items again" on a finished job with failed items. */
  onRetry: (job: BatchJobSummary) => void;
}

/** Step 5: a job's outcome — the summary by outcome, every item's row, the CSV export, Resume when items are left, and the failed items sent again. */
export function BatchJobPanel({ batchId, runError, onClose, closeLabel, onResume, onRetry }: JobPanelProps) {
  const { t, i18n } = useTranslation();
  const exportResults = useExportResults();
  const job = useBatchJob(batchId);
  const summary = job.data;
  const n = (value: number) => formatNumber(value, i18n.language);

  let headline: string;
  if (!summary) headline = t('batch.results.heading');
  else if (summary.state === 'finished') headline = t('batch.results.finished', { count: summary.total, formatted: n(summary.total) });
  else if (summary.state === 'paused') headline = t('batch.results.paused');
  else if (summary.state === 'running') headline = t('batch.results.running');
  else headline = t('batch.results.unfinished', { count: summary.counts.unfinished, formatted: n(summary.counts.unfinished), total: n(summary.total) });

  return (
    <CardSection title={headline} hint={summary ? t('batch.results.of', { time: formatDateTime(summary.createdAt, i18n.language), operation: t(`batch.operations.${summary.action}`), profile: summary.profileName }) : batchId} className="batch-card batch-job">
      {runError && <ErrorPanel title={t('batch.results.runFailed')} error={runError} showOutcome />}
      {job.isError && <ErrorPanel title={t('batch.results.loadFailed')} error={job.error} onRetry={() => void job.refetch()} retrying={job.isFetching} />}
      {summary && <OutcomeCounts counts={summary.counts} />}
      {job.isSuccess && summary === null && <p className="callout callout--warning">{t('batch.results.gone')}</p>}
      <div className="batch-job__actions">
        <button type="button" className="button button--primary" onClick={() => exportResults.mutate(batchId)} disabled={exportResults.isPending || !summary}>
          {t('batch.results.export')}
        </button>
        {summary?.state === 'unfinished' && (
          <button type="button" className="button" onClick={() => onResume(summary)}>
            {t('batch.jobs.resume')}
          </button>
        )}
        {summary?.state === 'finished' && summary.counts.failed > 0 && (
          <button type="button" className="button" onClick={() => onRetry(summary)}>
            {t('batch.results.retry')}
          </button>
        )}
        <button type="button" className="button button--ghost" onClick={onClose}>
          {closeLabel}
        </button>
      </div>
      {exportResults.isError && <ErrorPanel title={t('batch.results.exportFailed')} error={exportResults.error} />}
      {summary && <BatchResultsTable batchId={batchId} startedAt={summary.createdAt} />}
    </CardSection>
  );
}
