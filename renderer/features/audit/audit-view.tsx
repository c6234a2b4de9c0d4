import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '../../../shared/audit';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime } from '../../i18n/format';
import { queryKeys } from '../../state/query-keys';

const OUTCOME_MARK: Record<AuditEntry['outcome'], string> = { attempted: '…', succeeded: '✓', failed: '✗' };

/** Every irreversible act from this computer, newest first: the evidence for a request's file. */
export function AuditView() {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const audit = useQuery({ queryKey: queryKeys.audit, queryFn: () => bridge['audit.list']({ limit: 200 }) });
  const entries = [...(audit.data?.entries ?? [])].sort((a, b) => b.at.localeCompare(a.at));

  return (
    <section className="view" aria-labelledby="audit-title">
      <header className="view__header">
        <div>
          <h2 id="audit-title">{t('audit.title')}</h2>
          <p className="view__intro">{t('audit.intro')}</p>
        </div>
        <button type="button" className="button" onClick={() => void audit.refetch()} disabled={audit.isFetching}>
          {t('common.refresh')}
        </button>
      </header>
      {audit.isError ? (
        <ErrorPanel title={t('audit.loadFailed')} error={audit.error} onRetry={() => void audit.refetch()} retrying={audit.isFetching} />
      ) : !audit.data ? (
        <p className="muted">{t('common.loading')}</p>
      ) : entries.length === 0 ? (
        <p className="empty-inline">{t('audit.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table" aria-label={t('audit.tableLabel')}>
            <thead>
              <tr>
                <th scope="col">{t('audit.time')}</th>
                <th scope="col">{t('audit.action')}</th>
                <th scope="col">{t('audit.uid')}</th>
                <th scope="col">{t('audit.reference')}</th>
                <th scope="col">{t('audit.outcome')}</th>
                <th scope="col" className="numeric">{t('audit.status')}</th>
                <th scope="col">{t('audit.requestId')}</th>
                <th scope="col">{t('audit.profile')}</th>
                <th scope="col">{t('audit.via')}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => (
                <tr key={`${entry.at}-${index}`} className={entry.outcome === 'attempted' ? 'is-attempted' : undefined}>
                  <td className="nowrap">
                    <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
                  </td>
                  <td>{t(`audit.actions.${entry.action}`)}</td>
                  <td className="mono">{entry.uid}</td>
                  <td>{entry.reference ?? <span className="muted">{t('common.none')}</span>}</td>
                  <td>
                    <span className={`outcome-tag outcome-tag--${entry.outcome}`}>
                      <span aria-hidden="true">{OUTCOME_MARK[entry.outcome]} </span>
                      {t(`audit.outcomes.${entry.outcome}`)}
                      {entry.errorCode ? ` · ${entry.errorCode}` : ''}
                    </span>
                  </td>
                  <td className="numeric mono">{entry.status ?? t('common.none')}</td>
                  <td className="mono small">{entry.requestId ?? t('common.none')}</td>
                  <td>
                    {entry.profileName}
                    <span className="muted small block">{entry.baseUrl}</span>
                  </td>
                  <td>{t(`audit.vias.${entry.via}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
