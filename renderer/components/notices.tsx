import { useTranslation } from 'react-i18next';
import { useNotices } from '../state/notices-store';
import { ReceiptButton } from '../features/audit/receipt-button';

/** A polite live region: outcomes are announced without stealing focus. */
export function Notices() {
  const { t } = useTranslation();
  const notices = useNotices((s) => s.notices);
  const dismiss = useNotices((s) => s.dismiss);
  return (
    <section className="notices" aria-label={t('common.notices')}>
      <div role="status" aria-live="polite" className="notices__list">
        {notices.map((notice) => (
          <div key={notice.id} className={`notice notice--${notice.tone}`}>
            <span aria-hidden="true" className="notice__icon">{notice.tone === 'success' ? '✓' : notice.tone === 'error' ? '!' : 'i'}</span>
            <p className="notice__text">{notice.text}</p>
            {notice.receiptFor && <ReceiptButton subject={notice.receiptFor} small />}
            <button type="button" className="button button--ghost button--small" onClick={() => dismiss(notice.id)}>
              {t('common.dismiss')}
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
