import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserRecord } from '../../../shared/users';
import { InitialsAvatar } from '../../components/initials-avatar';
import { flattenFields } from './flatten-fields';
import { formatFieldValue } from './format-value';
import { RowActions } from './row-actions';

/** Every field the service sent for one user, as a readable definition list. */
export function UserDetailPanel({ user, onClose }: { user: UserRecord; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const fields = flattenFields(user.fields);
  useEffect(() => {
    // Move focus to the panel so keyboard and screen-reader users land on what they opened.
    headingRef.current?.focus();
  }, [user.uid]);
  return (
    <aside className="detail-panel" aria-labelledby="user-detail-title">
      <header className="detail-panel__header">
        <InitialsAvatar name={user.fullName} uid={user.uid} />
        <div className="detail-panel__who">
          <h3 id="user-detail-title" ref={headingRef} tabIndex={-1}>
            {t('detail.title')}
          </h3>
          <p className="detail-panel__name">{user.fullName ?? user.uid ?? t('users.noUid')}</p>
        </div>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          {t('detail.close')}
        </button>
      </header>
      <RowActions uid={user.uid} compact />
      {fields.length === 0 ? (
        <p className="muted">{t('detail.empty')}</p>
      ) : (
        <dl className="detail-list">
          {fields.map((field) => (
            <div key={field.path} className="detail-list__row">
              <dt>{field.label}</dt>
              <dd className={field.value === null || field.value === undefined || field.value === '' ? 'muted' : undefined}>
                {formatFieldValue(field.path, field.value, t, i18n.language)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </aside>
  );
}
