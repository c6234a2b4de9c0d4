import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { NearMatch, ReconcileSetName } from '../../../shared/reconcile';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { focusableWhileItScrolls } from '../../components/scroll-box';
import { VisibleUid } from '../../components/visible-uid';
import { formatNumber } from '../../i18n/format';
import { useReconcile } from './reconcile-store';

/** Rows a page of the table shows. */
export const RECONCILE_PAGE = 100;

/** One set of the reconciliation, a page at a time (reconcile.rows), each uid whole in its cell (a long one scrolls there, reachable by keyboard while it does). */
export function ReconcileTable({ reconcileId, set }: { reconcileId: string; set: ReconcileSetName }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const { filter, offset } = useReconcile();
  const setStore = useReconcile((s) => s.set);
  const rows = useQuery({
    queryKey: ['reconcile-rows', reconcileId, set, filter, offset],
    queryFn: () => bridge['reconcile.rows']({ reconcileId, set, filter, offset, limit: RECONCILE_PAGE }),
    placeholderData: keepPreviousData,
  });
  const n = (value: number) => formatNumber(value, i18n.language);
  if (rows.isError) return <ErrorPanel title={t('reconcile.rowsFailed')} error={rows.error} onRetry={() => void rows.refetch()} />;
  const page = rows.data;
  if (!page) return <p className="muted">{t('app.loading')}</p>;
  if (page.matching === 0) return <p className="muted reconcile-empty">{page.total === 0 ? t('reconcile.none') : t('reconcile.noneMatch')}</p>;
  const last = Math.min(page.matching, page.offset + page.rows.length);
  return (
    <div className="reconcile-table-box">
      <div className="table-scroll">
        <table className="table table--reconcile" data-testid="reconcile-table">
          <thead>
            {page.set === 'nearMatches' ? (
              <tr>
                <th scope="col">{t('reconcile.columns.service')}</th>
                <th scope="col">{t('reconcile.columns.application')}</th>
                <th scope="col">{t('reconcile.columns.differences')}</th>
              </tr>
            ) : (
              <tr>
                <th scope="col">{t('reconcile.columns.uid')}</th>
              </tr>
            )}
          </thead>
          <tbody>
            {page.set === 'nearMatches'
              ? page.rows.map((near: NearMatch) => (
                  <tr key={`${near.service}\u0000${near.application}`}>
                    <UidCell uid={near.service} />
                    <UidCell uid={near.application} />
                    <td className="reconcile-differences">{near.differences.map((kind) => t(`reconcile.differences.${kind}`)).join(', ')}</td>
                  </tr>
                ))
              : page.rows.map((uid) => (
                  <tr key={uid}>
                    <UidCell uid={uid} />
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
      <div className="reconcile-pager">
        <span className="muted small" role="status">
          {t('reconcile.shown', { from: n(page.offset + 1), to: n(last), matching: n(page.matching) })}
        </span>
        <button type="button" className="button button--small" disabled={page.offset === 0} onClick={() => setStore({ offset: Math.max(0, page.offset - RECONCILE_PAGE) })}>
          {t('reconcile.previous')}
        </button>
        <button type="button" className="button button--small" disabled={last >= page.matching} onClick={() => setStore({ offset: page.offset + RECONCILE_PAGE })}>
          {t('reconcile.next')}
        </button>
      </div>
    </div>
  );
}

function UidCell({ uid }: { uid: string }) {
  return (
    <td className="reconcile-uid-cell" data-testid="reconcile-uid">
      <span ref={focusableWhileItScrolls} className="reconcile-uid-cell__scroll">
        <VisibleUid uid={uid} inline className="uid-inline--nowrap" />
      </span>
    </td>
  );
}
