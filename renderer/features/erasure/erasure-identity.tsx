import { useTranslation } from 'react-i18next';
import type { UserRecord } from '../../../shared/users';
import { EmptyValue } from '../../components/empty-value';
import { formatDate, formatNumber } from '../../i18n/format';

/** Who the uid belongs to, so the operator can compare with the ticket before typing it. */
export function ErasureIdentity({ user }: { user: UserRecord }) {
  const { t, i18n } = useTranslation();
  const value = (text: string | null) => (text ? text : <EmptyValue />);
  return (
    <section className="erasure-identity" aria-labelledby="erasure-identity-title">
      <h3 id="erasure-identity-title" className="erasure-identity__title">
        {t('identity.heading')}
      </h3>
      <dl className="facts facts--inline erasure-identity__facts">
        <div>
          <dt>{t('identity.name')}</dt>
          <dd>{value(user.fullName)}</dd>
        </div>
        <div>
          <dt>{t('identity.email')}</dt>
          <dd className="break">{value(user.email)}</dd>
        </div>
        <div>
          <dt>{t('identity.created')}</dt>
          <dd>{user.createdAt ? formatDate(user.createdAt, i18n.language) : <EmptyValue />}</dd>
        </div>
        <div>
          <dt>{t('identity.contributions')}</dt>
          <dd>
            {t('identity.contributionCounts', {
              messages: formatNumber(user.messagesCount, i18n.language),
              votes: formatNumber(user.votesCount, i18n.language),
            })}
          </dd>
        </div>
      </dl>
      <p className="muted erasure-identity__hint">{t('identity.compareWithTicket')}</p>
    </section>
  );
}

/**
 * Said before the ceremony for a uid the console has not seen: a typo here would meet a 404 after a countdown.
 * When the search over every page has no such uid there is nothing to continue to (no onContinue).
 */
export function UnknownUidNotice({ indexedUsers, onLookUp, onContinue, onClose }: { indexedUsers?: number; onLookUp?: () => void; onContinue?: () => void; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="erasure-unknown">
      <p className="callout callout--warning" role="status">
        <span aria-hidden="true">⚠ </span>
        <strong>{t('identity.unknownTitle')}</strong>{' '}
        {indexedUsers !== undefined ? t('identity.absentFromIndex', { count: indexedUsers, n: formatNumber(indexedUsers, i18n.language) }) : t('identity.unknownBody')}
      </p>
      <p className="muted">{onLookUp ? t('identity.lookUpHint') : t('identity.lookUpPointer')}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t('common.close')}
        </button>
        {onLookUp && (
          <button type="button" className="button" onClick={onLookUp}>
            {t('identity.lookUp')}
          </button>
        )}
        {onContinue && (
          <button type="button" className="button button--danger-ghost" onClick={onContinue}>
            {t('identity.continueAnyway')}
          </button>
        )}
      </div>
    </div>
  );
}
