import { useTranslation } from 'react-i18next';
import { EmptyValue } from '../../components/empty-value';
import { useUiStore } from '../../state/ui-store';

/** Anonymise / Delete / Test logout for one uid; named with the uid so screen readers hear which user. */
export function RowActions({ uid, compact = true }: { uid: string | null; compact?: boolean }) {
  const { t } = useTranslation();
  const openErasure = useUiStore((s) => s.openErasure);
  const testLogout = useUiStore((s) => s.testLogout);
  if (uid === null) return <EmptyValue />;
  const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();
  const size = compact ? 'button--small' : '';
  return (
    <div className="row-actions" onClick={stop}>
      <button type="button" className={`button ${size}`} aria-label={t('users.rowAnonymize', { uid })} onClick={() => openErasure({ action: 'anonymize', uid })}>
        {t('users.anonymize')}
      </button>
      <button type="button" className={`button button--danger-ghost ${size}`} aria-label={t('users.rowDelete', { uid })} onClick={() => openErasure({ action: 'delete', uid })}>
        {t('users.delete')}
      </button>
      <button type="button" className={`button button--ghost ${size}`} aria-label={t('users.rowTestLogout', { uid })} onClick={() => testLogout(uid)}>
        {t('users.testLogout')}
      </button>
    </div>
  );
}
