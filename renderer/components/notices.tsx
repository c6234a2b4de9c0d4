import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotices, type Notice } from '../state/notices-store';
import { ReceiptButton } from '../features/audit/receipt-button';

/**
 * A polite live region, docked under the view as a bar of its own (styles/layout.css): the view ends above it,
 * so a notice never lies over what it talks about, wherever the view is scrolled. Routine confirmations fade
 * by themselves; outcomes that must stay (a request id for the ticket) are grouped under one heading with a
 * single "Clear all", and fold to that heading on request. The bar holds a quarter of the window at most:
 * beyond that its list scrolls, and a new outcome is scrolled into view.
 */
export function Notices() {
  const { t } = useTranslation();
  const notices = useNotices((s) => s.notices);
  const clearKept = useNotices((s) => s.clearKept);
  const kept = notices.filter((notice) => !notice.fades);
  const fading = notices.filter((notice) => notice.fades);
  const [folded, setFolded] = useState(false);
  const newestKept = kept.at(-1)?.id;
  const list = useRef<HTMLDivElement>(null);
  // A new outcome is always shown, even when the operator had folded the older ones.
  useEffect(() => setFolded(false), [newestKept]);
  useEffect(() => {
    const box = list.current;
    const newest = box?.querySelector('.notices__kept > .notice:last-child');
    if (!box || !newest) return;
    const below = newest.getBoundingClientRect().bottom - box.getBoundingClientRect().bottom;
    if (below > 0) box.scrollTop += below;
  }, [newestKept, folded]);
  return (
    <section className="notices" aria-label={t('common.notices')}>
      <div ref={list} role="status" aria-live="polite" className="notices__list">
        {kept.length > 0 && (
          <div className={`notices__kept ${folded ? 'notices__kept--folded' : ''}`}>
            <div className="notices__kept-head">
              <p className="notices__kept-title" title={t('notices.keptHint')}>
                {t('notices.kept', { count: kept.length })}
              </p>
              <button type="button" className="button button--ghost button--small" aria-expanded={!folded} onClick={() => setFolded(!folded)}>
                {folded ? t('notices.show') : t('notices.hide')}
              </button>
              {kept.length > 1 && (
                <button type="button" className="button button--ghost button--small" onClick={clearKept}>
                  {t('notices.clearAll')}
                </button>
              )}
            </div>
            {!folded && kept.map((notice) => <NoticeItem key={notice.id} notice={notice} />)}
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
  const { t, i18n } = useTranslation();
  const dismiss = useNotices((s) => s.dismiss);
  return (
    <div className={`notice notice--${notice.tone} ${notice.fades ? 'notice--fades' : ''}`}>
      <span aria-hidden="true" className="notice__icon">{notice.tone === 'success' ? '✓' : notice.tone === 'error' ? '!' : 'i'}</span>
      <p className="notice__text">
        <TextWithUid text={notice.text(t, i18n)} uid={notice.uid} />
      </p>
      {notice.receiptFor && <ReceiptButton subject={notice.receiptFor} small />}
      <button type="button" className="button button--ghost button--small" onClick={() => dismiss(notice.id)}>
        {t('common.dismiss')}
      </button>
    </div>
  );
}

/** The text, with the uid it names (if any) in a box of its own that wraps whole and never breaks inside. */
function TextWithUid({ text, uid }: { text: string; uid: string | undefined }) {
  const at = uid ? text.indexOf(uid) : -1;
  if (!uid || at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <span className="notice__uid">{uid}</span>
      {text.slice(at + uid.length)}
    </>
  );
}
