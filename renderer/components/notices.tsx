import { useTranslation } from 'react-i18next';
import { useNotices, type Notice } from '../state/notices-store';
import { ReceiptButton } from '../features/audit/receipt-button';

/**
 * A polite live region, docked bottom-left so it never covers the row actions on the right.
 * Routine confirmations fade by themselves; outcomes that must stay (a request id for the ticket)
 * are grouped under one heading with a single "Clear all".
 */
export function Notices() {
  const { t } = useTranslation();
  const notices = useNotices((s) => s.notices);
  const clearKept = useNotices((s) => s.clearKept);
  const kept = notices.filter((notice) => !notice.fades);
  const fading = notices.filter((notice) => notice.fades);
  return (
    <section className="notices" aria-label={t('common.notices')}>
      <div role="status" aria-live="polite" className="notices__list">
        {kept.length > 0 && (
          <div className="notices__kept">
            <div className="notices__kept-head">
              <p className="notices__kept-title" title={t('notices.keptHint')}>
                {t('notices.kept', { count: kept.length })}
              </p>
              {kept.length > 1 && (
                <button type="button" className="button button--ghost button--small" onClick={clearKept}>
                  {t('notices.clearAll')}
                </button>
              )}
            </div>
            {kept.map((notice) => (
              <NoticeItem key={notice.id} notice={notice} />
            ))}
          </div>
        )}
        {fading.map((notice) => (
          <NoticeItem key={notice.id} notice={notice} />
        ))}
      </div>
    </section>
  );
}

function NoticeItem({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  const dismiss = useNotices((s) => s.dismiss);
  return (
    <div className={`notice notice--${notice.tone} ${notice.fades ? 'notice--fades' : ''}`}>
      <span aria-hidden="true" className="notice__icon">{notice.tone === 'success' ? '✓' : notice.tone === 'error' ? '!' : 'i'}</span>
      <p className="notice__text">{notice.text}</p>
      {notice.receiptFor && <ReceiptButton subject={notice.receiptFor} small />}
      <button type="button" className="button button--ghost button--small" onClick={() => dismiss(notice.id)}>
        {t('common.dismiss')}
      </button>
    </div>
  );
}
