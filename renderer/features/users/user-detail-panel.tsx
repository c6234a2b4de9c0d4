import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRecord } from '../../../shared/users';
import { InitialsAvatar } from '../../components/initials-avatar';
import { VisibleUid } from '../../components/visible-uid';
import { VisibleText } from '../../components/visible-text';
import { flattenFields } from './flatten-fields';
import { formatFieldValue } from './format-value';
import { RowActions } from './row-actions';

/**
 * Every field the service sent for one user, as a readable definition list.
 * The header (name, Close, actions) stays put while the list scrolls inside the
 * viewport, and a hint says when more fields are below.
 */
export function UserDetailPanel({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const [moreBelow, setMoreBelow] = useState(false);
  const fields = flattenFields(user.fields);

  const measure = useCallback(() => {
    // The panel ends inside the viewport wherever the page is scrolled, so its last line is never off screen.
    const panel = panelRef.current;
    if (panel) {
      // The view scrolls in its own box (main), with the kept notices docked under it: the panel ends above them.
      const view = panel.closest('main')?.getBoundingClientRect();
      const top = Math.max(panel.getBoundingClientRect().top, (view?.top ?? 0) + 16);
      const bottom = view?.bottom ?? window.innerHeight;
      panel.style.maxHeight = `${Math.max(bottom - top - 16, 240)}px`;
    }
    const list = listRef.current;
    if (list) setMoreBelow(list.scrollHeight - list.scrollTop - list.clientHeight > 4);
  }, []);
  useEffect(() => {
    // Move focus to the panel so keyboard and screen-reader users land on what they opened; at 1024 it opens below
    // the table, so it is brought into view too (a click on a match far above would otherwise show no change).
    headingRef.current?.focus({ preventScroll: true });
    panelRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [user.uid]);
  useLayoutEffect(() => {
    listRef.current?.scrollTo?.({ top: 0 });
    measure();
    // The view's box scrolls, and it grows or shrinks as notices come and go: measured again on each.
    const view = panelRef.current?.closest('main');
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    if (view) resized?.observe(view);
    window.addEventListener('resize', measure);
    view?.addEventListener('scroll', measure, { passive: true });
    return () => {
      resized?.disconnect();
      window.removeEventListener('resize', measure);
      view?.removeEventListener('scroll', measure);
    };
  }, [user, measure]);

  return (
    <aside ref={panelRef} className="detail-panel" aria-labelledby="user-detail-title">
      <div className="detail-panel__top">
        <header className="detail-panel__header">
          <InitialsAvatar name={user.fullName} uid={user.uid} />
          <div className="detail-panel__who">
            <h3 id="user-detail-title" ref={headingRef} tabIndex={-1}>
              {t('detail.title')}
            </h3>
            <p className="detail-panel__name">{user.fullName !== null ? <VisibleText text={user.fullName} /> : user.uid !== null ? <VisibleText text={user.uid} kind="exact" /> : t('users.noUid')}</p>
            {user.uid !== null && (
              <p className="detail-panel__uid mono truncate" title={user.uid}>
                <VisibleUid uid={user.uid} inline />
              </p>
            )}
          </div>
          {/* Short visible word; the accessible name says what closes. */}
          <button type="button" className="button button--small" aria-label={t('detail.close')} onClick={onClose}>
            <span aria-hidden="true">✕</span> {t('common.close')}
          </button>
        </header>
        <RowActions uid={user.uid} compact />
      </div>
      {fields.length === 0 ? (
        <p className="muted detail-panel__empty">{t('detail.empty')}</p>
      ) : (
        // Focusable so the list can be scrolled from the keyboard.
        <div ref={listRef} className="detail-panel__scroll" tabIndex={0} role="region" aria-label={t('detail.fieldsLabel')} onScroll={measure}>
          <p className="detail-panel__count">{t('detail.fieldCount', { count: fields.length })}</p>
          <dl className="detail-list">
            {fields.map((field) => (
              <div key={field.path} className="detail-list__row">
                <dt>{field.label}</dt>
                <dd className={field.value === null || field.value === undefined || field.value === '' ? 'muted' : undefined}>
                  {/* The uid field is drawn like every uid: its marks, and never broken inside itself. */}
                  {field.path === 'uid' && typeof field.value === 'string' ? (
                    <VisibleUid uid={field.value} inline />
                  ) : (
                    // Every other value the service sent is drawn too: a name that reverses the text, an e-mail with a zero-width space.
                    <VisibleText text={formatFieldValue(field.path, field.value, t, i18n.language)} kind={field.path === 'email' ? 'exact' : 'name'} />
                  )}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      {moreBelow && (
        <p className="detail-panel__more" aria-hidden="true">
          <span>↓</span> {t('detail.moreBelow')}
        </p>
      )}
    </aside>
  );
}
