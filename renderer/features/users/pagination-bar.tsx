import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PER_PAGE_CHOICES, type UserPage } from '../../../shared/users';
import { formatNumber } from '../../i18n/format';
import { ListAge } from './list-age';

interface PaginationBarProps {
  page: number;
  perPage: number;
  data: UserPage | undefined;
  disabled: boolean;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
  /** When the page shown was read (this window's clock): its count is as true as it was then. */
  readAt?: number;
}

/** First / previous / next / last (last only when the service tells how many pages there are). */
export function PaginationBar({ page, perPage, data, disabled, onPage, onPerPage, readAt }: PaginationBarProps) {
  const { t, i18n } = useTranslation();
  const perPageId = useId();
  const totalPages = data?.totalPages;
  const hasNext = data ? data.hasNext : false;
  const summary = [
    totalPages !== undefined ? t('pagination.pageOf', { page, totalPages }) : t('pagination.page', { page }),
    data?.total !== undefined ? t('pagination.total', { count: data.total, formatted: formatNumber(data.total, i18n.language) }) : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination__summary" aria-live="polite">
        <span>{summary}</span>
        {readAt !== undefined && data && (
          <>
            {' · '}
            <ListAge readAt={readAt} form="fragment" className="pagination__age" />
          </>
        )}
      </p>
      <div className="pagination__controls">
        <button type="button" className="button button--small" onClick={() => onPage(1)} disabled={disabled || page <= 1}>
          <span aria-hidden="true">«</span> {t('pagination.first')}
        </button>
        <button type="button" className="button button--small" onClick={() => onPage(page - 1)} disabled={disabled || page <= 1}>
          <span aria-hidden="true">‹</span> {t('pagination.previous')}
        </button>
        <button type="button" className="button button--small" onClick={() => onPage(page + 1)} disabled={disabled || !hasNext}>
          {t('pagination.next')} <span aria-hidden="true">›</span>
        </button>
        {totalPages !== undefined && (
          <button type="button" className="button button--small" onClick={() => onPage(totalPages)} disabled={disabled || page >= totalPages}>
            {t('pagination.last')} <span aria-hidden="true">»</span>
          </button>
        )}
        <label className="pagination__per-page" htmlFor={perPageId}>
          {t('pagination.perPage')}
        </label>
        <select id={perPageId} className="select select--small" value={perPage} onChange={(event) => onPerPage(Number(event.target.value))}>
          {PER_PAGE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
