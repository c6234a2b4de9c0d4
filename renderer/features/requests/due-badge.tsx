import { useTranslation } from 'react-i18next';
import { useDueCount } from './use-requests';

/**
 * The Requests tab's badge: how many open requests are overdue or due within a week. Red with a warning mark when
 * any is overdue; the sentence behind the number is read out with the tab's name and shown on hover.
 */
export function DueBadge() {
  const { t } = useTranslation();
  const due = useDueCount().data;
  if (!due || due.overdue + due.dueSoon === 0) return null;
  const said = t('requests.badge', { overdue: due.overdue, dueSoon: due.dueSoon });
  return (
    <span className={`tab-badge${due.overdue > 0 ? ' tab-badge--overdue' : ''}`} title={said} data-testid="requests-badge">
      <span aria-hidden="true">
        {due.overdue > 0 ? '⚠ ' : ''}
        {due.overdue + due.dueSoon}
      </span>
      <span className="visually-hidden">{said}</span>
    </span>
  );
}
