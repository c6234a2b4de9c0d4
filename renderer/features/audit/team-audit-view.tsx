import { keepPreviousData, useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEntryAt, AuditExportFormat } from '../../../shared/audit';
import type { AuditQueryPage } from '../../../shared/audit-query';
import { useBridge } from '../../bridge/bridge-context';
import { CopyButton } from '../../components/copy-button';
import { ErrorPanel } from '../../components/error-panel';
import { saveFile } from '../../components/save-file';
import { ViewSection } from '../../components/view-section';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';
import { isFilterActive, toAuditFilter, useAuditFilter } from './audit-filter-store';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';
import { groupAuditRows, type AuditActRow } from './group-acts';
import { IntegrityBadge } from './integrity-badge';
import { ReceiptButton } from './receipt-button';

/** Entries a page asks for: a few screens of rows, so scrolling rarely waits and no answer is large. */
export const TEAM_AUDIT_PAGE = 200;

const receiptFor = (row: AuditActRow) => row.entry.actId && <ReceiptButton subject={{ actId: row.entry.actId }} small />;

/**
 * The audit view on the team trail (team mode): a page at a time from the database, the filters sent with each page
 * (core/team/pg-audit-query.ts applies them in SQL), the next page asked for as the operator scrolls; nothing held but
 * what was scrolled through. The chain is not checked on opening (it would read every entry): the badge says so until
 * the operator asks.
 */
export function TeamAuditView({ where }: { where: string }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const pushNotice = useNotices((s) => s.push);
  const form = useAuditFilter((s) => s.form);
  const filter = useDeferredValue(useMemo(() => toAuditFilter(form), [form]));
  const pages = useInfiniteQuery({
    queryKey: [...queryKeys.audit, 'team', filter],
    queryFn: ({ pageParam }) => bridge['audit.queryPage']({ filter, ...(pageParam !== undefined ? { cursor: pageParam } : {}), limit: TEAM_AUDIT_PAGE }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: AuditQueryPage) => last.nextCursor ?? undefined,
    // While another filter's first page is read, the rows before it (and the form being typed in) stay on screen.
    placeholderData: keepPreviousData,
  });
  const verify = useMutation({ mutationFn: () => bridge['audit.verify']({}) });
  const first = pages.data?.pages[0];
  const entries = useMemo(() => mergedEntries(pages.data?.pages ?? []), [pages.data]);
  const rows = useMemo(() => groupAuditRows(entries, first?.corrupt ?? []), [entries, first]);
  // Every profile seen in any page read since the view opened: choosing one must not take the others off the list.
  const seenProfiles = useRef(new Map<string, string>());
  const profiles = useMemo(() => {
    for (const entry of entries) if (entry.profileId) seenProfiles.current.set(entry.profileId, entry.profileName);
    return [...seenProfiles.current].map(([id, name]) => ({ id, name }));
  }, [entries]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const nextPage = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const exportRows = useMutation({
    mutationFn: (format: AuditExportFormat) => bridge['audit.export']({ format, filter }),
    onSuccess: (file) => {
      saveFile(file);
      pushNotice({ tone: 'success', text: (t) => t('audit.exported', { count: file.count, fileName: file.fileName, head: file.headHash ? `${file.headHash.slice(0, 12)}…` : t('common.none') }) });
    },
  });
  const actRows = rows.filter((row) => row.kind === 'act').length;
  // A pass holds for the chain it read: once the trail has grown past it (a refresh shows more), it is asked again.
  // A break stays on screen whatever was written since.
  const verdict = verify.data && (!verify.data.ok || verify.data.entries === first?.head.entries) ? verify.data : undefined;

  return (
    <ViewSection
      id="audit"
      title={t('audit.title')}
      intro={t('teamAudit.intro')}
      actions={
        <button type="button" className="button" onClick={() => void pages.refetch()} disabled={pages.isFetching}>
          {t('common.refresh')}
        </button>
      }
    >
      {pages.isError && !first ? (
        <ErrorPanel title={t('audit.loadFailed')} error={pages.error} onRetry={() => void pages.refetch()} retrying={pages.isFetching} />
      ) : !first ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <div className="audit" data-audit-store="team">
          <p className="muted small" data-testid="audit-where">
            {t('teamAudit.where', { where })}
          </p>
          {verdict ? (
            <IntegrityBadge verdict={verdict} onVerify={() => verify.mutate()} verifying={verify.isPending} />
          ) : (
            <NotVerified head={first.head} onVerify={() => verify.mutate()} verifying={verify.isPending} />
          )}
          {verify.isError && <ErrorPanel title={t('audit.verifyFailed')} error={verify.error} />}
          <AuditFilters profiles={profiles} />
          <div className="audit-toolbar">
            <p className="audit-toolbar__count" role="status">
              <CountText first={first} filtered={isFilterActive(form)} /> · {t('teamAudit.shown', { count: actRows })}
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
          {rows.length === 0 ? (
            <p className="empty-inline">{first.head.entries === 0 ? t('audit.empty') : t('audit.noMatch')}</p>
          ) : (
            <AuditTable rows={rows} verdict={verdict} renderActions={receiptFor} onNearEnd={nextPage} />
          )}
          {pages.isFetchNextPageError && <ErrorPanel title={t('teamAudit.pageFailed')} error={pages.error} onRetry={nextPage} retrying={isFetchingNextPage} />}
          <p className="muted small" role="status" data-testid="audit-paging">
            {isFetchingNextPage ? (
              t('teamAudit.loadingMore')
            ) : hasNextPage ? (
              <button type="button" className="button button--ghost button--small" onClick={nextPage}>
                {t('teamAudit.loadMore')}
              </button>
            ) : rows.length > 0 ? (
              t('teamAudit.allShown')
            ) : null}
          </p>
        </div>
      )}
    </ViewSection>
  );
}

/** The pages' entries once each (an act's entries may come with more than one page), oldest first as the grouping wants them. */
function mergedEntries(pages: readonly AuditQueryPage[]): AuditEntryAt[] {
  const byLine = new Map<number, AuditEntryAt>();
  for (const page of pages) for (const entry of page.entries) byLine.set(entry.line, entry);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

/** The count the first page brought: the whole trail, the entries the filter keeps, or "more than" where counting stopped. */
function CountText({ first, filtered }: { first: AuditQueryPage; filtered: boolean }) {
  const { t } = useTranslation();
  const count = first.count ?? { value: first.head.entries, exact: true };
  if (!filtered) return <>{t('teamAudit.total', { count: first.head.entries })}</>;
  return <>{count.exact ? t('teamAudit.matching', { count: count.value }) : t('teamAudit.matchingMore', { count: count.value })}</>;
}

/** Before the operator asks: the head as the database holds it, said to be unchecked, and the button that checks it. */
function NotVerified({ head, onVerify, verifying }: { head: AuditQueryPage['head']; onVerify: () => void; verifying: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="integrity integrity--unknown" role="status" data-testid="integrity" data-verified="no">
      <span aria-hidden="true" className="integrity__mark">?</span>
      <div className="integrity__text">
        <p className="integrity__title">{t('teamAudit.notVerified')}</p>
        <p className="integrity__detail">{t('teamAudit.notVerifiedDetail', { count: head.entries })}</p>
        {head.hash && (
          <p className="integrity__detail">
            {t('audit.head')}{' '}
            <code className="selectable" title={head.hash} data-head-hash={head.hash}>
              {head.hash.slice(0, 12)}…
            </code>{' '}
            <CopyButton text={head.hash} label={t('audit.copyHead')} />
          </p>
        )}
      </div>
      <button type="button" className="button button--small" onClick={onVerify} disabled={verifying}>
        {verifying ? t('audit.verifying') : t('teamAudit.verify')}
      </button>
    </div>
  );
}
