import { useTranslation } from 'react-i18next';
import { ErrorPanel } from '../../components/error-panel';
import { listAgeText, readTime, useNow } from './list-age';

interface PageTruthProps {
  /** When the page shown was read (this window's clock). */
  readAt: number;
  /** Reading it again failed: the page shown is the old one. */
  refreshError?: unknown;
  onRetry: () => void;
  retrying: boolean;
  /** How many of its users an act concerned since it was read (their rows are marked). */
  erasedSince: number;
  /** The audit trail was replaced since it was read: erasures since then cannot be told. */
  untracked: boolean;
}

/**
 * Above a page of users read earlier: what is no longer true of it. A failed refresh keeps the old page only
 * under a banner saying when it was read; users erased since are counted (their rows say by whom).
 */
export function PageTruth({ readAt, refreshError, onRetry, retrying, erasedSince, untracked }: PageTruthProps) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  return (
    <>
      {refreshError !== undefined && (
        <ErrorPanel
          title={t('users.refreshFailed', { time: readTime(readAt, i18n.language), age: listAgeText(readAt, now, t, 'bare') })}
          error={refreshError}
          onRetry={onRetry}
          retrying={retrying}
        />
      )}
      {erasedSince > 0 && (
        <p className="callout callout--info users-erased-note" role="status" aria-label={t('users.erasedSinceLabel')}>
          <span aria-hidden="true">ⓘ </span>
          {t('users.erasedSinceNote', { count: erasedSince })}
        </p>
      )}
      {untracked && (
        <p className="callout callout--warning users-erased-note" role="status">
          <span aria-hidden="true">⚠ </span>
          {t('users.untracked')}
        </p>
      )}
    </>
  );
}
