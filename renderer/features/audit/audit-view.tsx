import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../../bridge/bridge-context';
import { EmptyValue } from '../../components/empty-value';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime } from '../../i18n/format';
import { queryKeys } from '../../state/query-keys';
import { groupAuditActs, type ActOutcome } from './group-acts';
import { ViewSection } from '../../components/view-section';

// A mark beside each word so the outcome never rests on colour alone.
const OUTCOME_MARK: Record<ActOutcome, string> = { attempted: '…', done: '✓', refused: '✗', 'not-sent': '○', unknown: '⚠', verification: '✓' };
const ROW_CLASS: Partial<Record<ActOutcome, string>> = { attempted: 'is-attempted', unknown: 'is-unknown' };

/** Every irreversible act from this computer, newest first: the evidence for a request's file. */
export function AuditView() {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const audit = useQuery({ queryKey: queryKeys.audit, queryFn: () => bridge['audit.list']({ limit: 200 }) });
  // One row per act: the attempt and its outcome are paired by actId.
  const acts = groupAuditActs(audit.data?.entries ?? []);

  return (
    <ViewSection
      id="audit"
      title={t('audit.title')}
      intro={t('audit.intro')}
      actions={
        <button type="button" className="button" onClick={() => void audit.refetch()} disabled={audit.isFetching}>
          {t('common.refresh')}
        </button>
      }
    >
      {audit.isError ? (
        <ErrorPanel title={t('audit.loadFailed')} error={audit.error} onRetry={() => void audit.refetch()} retrying={audit.isFetching} />
      ) : !audit.data ? (
        <p className="muted">{t('common.loading')}</p>
      ) : acts.length === 0 ? (
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
              {acts.map(({ key, entry, outcome, at }) => (
                <tr key={key} className={ROW_CLASS[outcome]}>
                  <td className="nowrap">
                    <time dateTime={at}>{formatDateTime(at, i18n.language)}</time>
                  </td>
                  <td>{t(`audit.actions.${entry.action}`)}</td>
                  <td className="mono">{entry.uid}</td>
                  <td>{entry.reference ?? <EmptyValue />}</td>
                  <td>
                    <span className={`outcome-tag outcome-tag--${outcome}`}>
                      <span aria-hidden="true">{OUTCOME_MARK[outcome]} </span>
                      {t(`audit.outcomes.${outcome}`)}
                      {entry.errorCode ? ` · ${entry.errorCode}` : ''}
                    </span>
                  </td>
                  <td className="numeric">{entry.status === undefined ? <EmptyValue /> : <span className="mono">{entry.status}</span>}</td>
                  <td>{entry.requestId ? <span className="mono small">{entry.requestId}</span> : <EmptyValue />}</td>
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
    </ViewSection>
  );
}
