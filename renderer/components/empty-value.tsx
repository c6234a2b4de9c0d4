import { useTranslation } from 'react-i18next';

/** The one way an empty cell or value reads everywhere: a muted "—" in the body font. */
export function EmptyValue() {
  const { t } = useTranslation();
  return <span className="empty-value">{t('common.none')}</span>;
}
