import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchCounts, BatchResultOutcome, BatchResultRow } from '../../../shared/batch';
import { useBridge } from '../../bridge/bridge-context';
import { EmptyValue } from '../../components/empty-value';
import { ErrorPanel } from '../../components/error-panel';
import { saveFile } from '../../components/save-file';
import { VisibleUid } from '../../components/visible-uid';
import { formatNumber } from '../../i18n/format';
import { useNotices } from '../../state/notices-store';
import { batchKeys } from './batch-keys';
import { formatRecordedAt } from './format-when';
import { parseResultRows } from './parse-results';
import { wordMessage } from '../../i18n/word-message';

export const RESULTS_PAGE_SIZE = 50;

// A mark beside each word, so the outcome never rests on colour alone.
export const OUTCOME_MARK: Record<BatchResultOutcome, string> = { done: '✓', 'done-before-interruption': '✓', 'not-found': '○', failed: '✗', unfinished: '…' };

/** The summary by outcome: the same words in the results, the past jobs and the CLI. */
export function OutcomeCounts({ counts }: { counts: BatchCounts }) {
  const { t, i18n } = useTranslation();
  const entries: Array<[BatchResultOutcome, number]> = [
    ['done', counts.done],
    ['done-before-interruption', counts.doneBeforeInterruption],
    ['not-found', counts.notFound],
    ['failed', counts.failed],
    ['unfinished', counts.unfinished],
  ];
  return (
    <ul className="batch-outcomes" aria-label={t('batch.results.summaryLabel')}>
      {entries
        .filter(([outcome, count]) => count > 0 || outcome === 'done' || outcome === 'failed')
        .map(([outcome, count]) => (
          <li key={outcome} className={`batch-outcome batch-outcome--${outcome}`}>
            <span className="batch-outcome__count">{formatNumber(count, i18n.language)}</span>
            <span className="batch-outcome__label">
              <span aria-hidden="true">{OUTCOME_MARK[outcome]} </span>
              {t(`batch.outcomes.${outcome}`)}
            </span>
          </li>
        ))}
    </ul>
  );
}

/** Exports a job's results as CSV through the browser's download, as the audit export does. */
export function useExportResults() {
  const bridge = useBridge();
  const pushNotice = useNotices((s) => s.push);
  return useMutation({
    mutationFn: (batchId: string) => bridge['batch.results']({ batchId, format: 'csv' }),
    onSuccess: (file) => {
      saveFile({ fileName: file.fileName, mimeType: file.mimeType, content: file.content });
      pushNotice({ tone: 'success', text: (t) => t('batch.results.exported', { count: file.rows, fileName: file.fileName }) });
    },
  });
}

/**
 * One row per item with its outcome; failed rows can be shown alone; pages of 50 keep 100,000 rows light.
 * `startedAt` (the job's start): items recorded that day show the time alone. Narrow windows hide the
 * request id column (batch.css); the CSV export keeps it.
 */
export function BatchResultsTable({ batchId, startedAt }: { batchId: string; startedAt?: string }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const [failedOnly, setFailedOnly] = useState(false);
  const [page, setPage] = useState(0);
  const results = useQuery({
    queryKey: batchKeys.results(batchId),
    queryFn: async () => parseResultRows((await bridge['batch.results']({ batchId, format: 'json' })).content),
  });
  const rows = useMemo(() => (failedOnly ? (results.data ?? []).filter((row) => row.outcome === 'failed') : (results.data ?? [])), [results.data, failedOnly]);
  const failedCount = useMemo(() => (results.data ?? []).filter((row) => row.outcome === 'failed').length, [results.data]);
  const pages = Math.max(1, Math.ceil(rows.length / RESULTS_PAGE_SIZE));
  const current = Math.min(page, pages - 1);
  const shown = rows.slice(current * RESULTS_PAGE_SIZE, (current + 1) * RESULTS_PAGE_SIZE);
  const n = (value: number) => formatNumber(value, i18n.language);

  if (results.isError) return <ErrorPanel title={t('batch.results.loadFailed')} error={results.error} onRetry={() => void results.refetch()} retrying={results.isFetching} />;
  if (!results.data) return <p className="muted">{t('common.loading')}</p>;
  return (
    <div className="batch-results">
      <div className="batch-results__toolbar">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={failedOnly}
            onChange={(event) => {
              setFailedOnly(event.target.checked);
              setPage(0);
            }}
          />
          <span>{t('batch.results.failedOnly', { count: failedCount, formatted: n(failedCount) })}</span>
        </label>
        {rows.length > RESULTS_PAGE_SIZE && (
          <div className="batch-results__pages">
            <span className="muted small" role="status">
              {t('batch.results.rowsOf', { from: n(current * RESULTS_PAGE_SIZE + 1), to: n(current * RESULTS_PAGE_SIZE + shown.length), total: n(rows.length) })}
            </span>
            <button type="button" className="button button--small" onClick={() => setPage(current - 1)} disabled={current === 0}>
              {t('batch.results.previous')}
            </button>
            <button type="button" className="button button--small" onClick={() => setPage(current + 1)} disabled={current >= pages - 1}>
              {t('batch.results.next')}
            </button>
          </div>
        )}
      </div>
      {rows.length === 0 ? (
        <p className="empty-inline">{failedOnly ? t('batch.results.noFailed') : t('batch.results.empty')}</p>
      ) : (
        <div className="table-scroll batch-results__scroll">
          <table className="table batch-results__table" aria-label={t('batch.results.tableLabel', { id: batchId })}>
            <thead>
              <tr>
                <th scope="col" className="numeric">{t('batch.results.columns.line')}</th>
                <th scope="col">{t('batch.results.columns.uid')}</th>
                <th scope="col">{t('batch.results.columns.outcome')}</th>
                <th scope="col">{t('batch.results.columns.reference')}</th>
                <th scope="col" className="numeric">{t('batch.results.columns.status')}</th>
                <th scope="col" className="batch-col--wide">{t('batch.results.columns.requestId')}</th>
                <th scope="col">{t('batch.results.columns.at')}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <ResultRow key={`${row.line}:${row.uid}`} row={row} language={i18n.language} startedAt={startedAt} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ResultRow({ row, language, startedAt }: { row: BatchResultRow; language: string; startedAt?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <tr className={row.outcome === 'failed' ? 'is-failed' : undefined}>
      <td className="numeric">{row.line}</td>
      <td className="uid-text batch-results__uid">
        <VisibleUid uid={row.uid} inline />
        {row.pastedUid !== undefined && (
          <span className="muted small block">
            {t('batch.results.pastedAs')} <VisibleUid uid={row.pastedUid} inline /> · {t('batch.results.trimmedByChoice')}
          </span>
        )}
      </td>
      <td>
        <span className={`outcome-tag batch-outcome-tag--${row.outcome}`}>
          <span aria-hidden="true">{OUTCOME_MARK[row.outcome]} </span>
          {t(`batch.outcomes.${row.outcome}`)}
        </span>
        {/* The reason in the window's language from its message; a row without one keeps the core's English. */}
        {row.reason && <span className="small block batch-results__reason">{(row.reasonText && wordMessage(i18n, row.reasonText)) ?? row.reason}</span>}
      </td>
      <td className="batch-results__reference">{row.reference || <EmptyValue />}</td>
      <td className="numeric">{row.status === undefined ? <EmptyValue /> : <span className="mono">{row.status}</span>}</td>
      <td className="batch-col--wide">{row.requestId ? <span className="mono small">{row.requestId}</span> : <EmptyValue />}</td>
      <td className="small batch-results__at">{row.at ? <time dateTime={row.at}>{formatRecordedAt(row.at, language, startedAt)}</time> : <EmptyValue />}</td>
    </tr>
  );
}
