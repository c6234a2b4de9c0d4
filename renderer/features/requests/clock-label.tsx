import { useTranslation } from 'react-i18next';
import type { RequestClock } from '../../../shared/requests';
import { formatDay } from './format-day';

/** The marks that say a clock's state without colour (the colour only repeats them). */
const MARK: Record<RequestClock['state'], string> = { overdue: '⚠', 'due-soon': '◷', open: '', paused: '⏸', closed: '✓' };

/**
 * Days left as the core computed them, worded by state: overdue in red with a warning mark, due within a week
 * highlighted with a clock mark, paused and closed said as such. Both themes colour it through tokens.
 */
export function ClockLabel({ clock, withDeadline = false }: { clock: RequestClock; withDeadline?: boolean }) {
  const { t, i18n } = useTranslation();
  const text = (() => {
    switch (clock.state) {
      case 'overdue':
        return t('requests.clock.overdue', { count: -clock.daysLeft });
      case 'paused':
        return t('requests.clock.paused');
      case 'closed':
        return t('requests.clock.closed');
      default:
        return clock.daysLeft === 0 ? t('requests.clock.dueToday') : t('requests.clock.daysLeft', { count: clock.daysLeft });
    }
  })();
  return (
    <span className={`clock-label clock-label--${clock.state}`} data-state={clock.state}>
      {MARK[clock.state] ? <span aria-hidden="true">{MARK[clock.state]} </span> : null}
      {text}
      {withDeadline ? <span className="clock-label__deadline"> · {t('requests.clock.deadline', { day: formatDay(clock.deadline, i18n.language) })}</span> : null}
    </span>
  );
}
