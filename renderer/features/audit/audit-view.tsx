import { useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditExportFormat } from '../../../shared/audit';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { saveFile } from '../../components/save-file';
import { ViewSection } from '../../components/view-section';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';
import { useAuditFilter, isFilterActive, toAuditFilter } from './audit-filter-store';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';
import type { AuditActRow } from './group-acts';
import { IntegrityBadge, ReadingNotes } from './integrity-badge';
import { readAuditInPages } from './read-audit-in-pages';
import { ReceiptButton } from './receipt-button';
import { TeamAuditView } from './team-audit-view';
import { useAuditRows } from './use-audit-rows';

// One function for every render, so the table's rows are not drawn again when the view is.
const receiptFor = (row: AuditActRow) => row.entry.actId && <ReceiptButton subject={{ actId: row.entry.actId }} small />;

/**
 * The audit trail where it is kept: the data folder's file, read whole (LocalAuditView); or the team database, read a
 * page at a time (TeamAuditView). Which one is asked first, so a team trail is never read whole.
 */
export function AuditView() {
  const { t } = useTranslation();
  const bridge = useBridge();
  const source = useQuery({ queryKey: [...queryKeys.audit, 'source'], queryFn: () => bridge['audit.source']({}) });
  if (source.data?.kind === 'team') return <TeamAuditView where={source.data.where} />;
  if (source.isPending) {
    return (
      <ViewSection id="audit" title={t('audit.title')} intro={t('audit.intro')}>
        <p className="muted">{t('common.loading')}</p>
      </ViewSection>
    );
  }
  return <LocalAuditView />;
}

/** Every irreversible act from this computer, newest first: the evidence for a request's file. */
function LocalAuditView() {
  const { t } = useTranslation();
  const bridge = useBridge();
  const pushNotice = useNotices((s) => s.push);
  // Each reading is new as a whole: comparing 50,000 entries with the last reading's would be one long task.
  const audit = useQuery({ queryKey: queryKeys.audit, queryFn: () => readAuditInPages(bridge), structuralSharing: false });
  const verify = useMutation({ mutationFn: () => bridge['audit.verify']({}) });
  // Written to the trail as a chained entry; the trail is read again so the badge and the rows show it.
  const acknowledge = async (finding: string, reason: string) => {
    await bridge['audit.acknowledge']({ finding, reason });
    pushNotice({ tone: 'success', text: (t) => t('audit.anchor.done', { finding }) });
    await audit.refetch();
  };
  const form = useAuditFilter((s) => s.form);
  // Typing in a filter stays responsive over 50,000 entries: the rows follow a beat behind.
  const filter = useDeferredValue(useMemo(() => toAuditFilter(form), [form]));
  const reading = audit.data;
  const rows = useAuditRows(reading, filter);
  const profiles = useMemo(() => {
    const byId = new Map<string, string>();
    for (const entry of reading?.entries ?? []) byId.set(entry.profileId, entry.profileName);
    return [...byId].map(([id, name]) => ({ id, name }));
  }, [reading]);

  const exportRows = useMutation({
    // The filter goes to main, which exports from the file itself: what is saved is what the trail holds.
    mutationFn: (format: AuditExportFormat) => bridge['audit.export']({ format, filter }),
    onSuccess: (file) => {
      saveFile(file);
      pushNotice({ tone: 'success', text: (t) => t('audit.exported', { count: file.count, fileName: file.fileName, head: file.headHash ? `${file.headHash.slice(0, 12)}…` : t('common.none') }) });
    },
  });

  const verdict = verify.data && verify.submittedAt >= audit.dataUpdatedAt ? verify.data : reading?.verdict;
  const actRows = rows?.filter((row) => row.kind === 'act').length ?? 0;

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
      ) : !reading || !verdict || !rows ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <div className="audit">
          <IntegrityBadge verdict={verdict} onVerify={() => verify.mutate()} verifying={verify.isPending} onAcknowledge={acknowledge} />
          {verify.isError && <ErrorPanel title={t('audit.verifyFailed')} error={verify.error} />}
          <ReadingNotes reading={reading} />
          <AuditFilters profiles={profiles} />
          <div className="audit-toolbar">
            <p className="audit-toolbar__count" role="status">
              {isFilterActive(form) ? t('audit.countFiltered', { count: actRows, total: reading.entries.length }) : t('audit.count', { count: actRows })}
            </p>
            <div className="audit-toolbar__actions">
              <button type="button" className="button button--small" onClick={() => exportRows.mutate('csv')} disabled={exportRows.isPending || actRows === 0}>
                {t('audit.exportCsv')}
              </button>
              <button type="button" className="button button--small" onClick={() => exportRows.mutate('json')} disabled={exportRows.isPending || actRows === 0}>
                {t('audit.exportJson')}
              </button>
              {filter.reference?.trim() && actRows > 0 && <ReceiptButton subject={{ reference: filter.reference.trim() }} small />}
            </div>
          </div>
          {exportRows.isError && <ErrorPanel title={t('audit.exportFailed')} error={exportRows.error} />}
          {reading.entries.length === 0 && reading.corrupt.length === 0 ? (
            <p className="empty-inline">{t('audit.empty')}</p>
          ) : rows.length === 0 ? (
            <p className="empty-inline">{t('audit.noMatch')}</p>
          ) : (
            <AuditTable rows={rows} verdict={verdict} renderActions={receiptFor} />
          )}
        </div>
      )}
    </ViewSection>
  );
}
