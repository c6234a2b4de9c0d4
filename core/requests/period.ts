import type { CalendarDay } from './calendar-date';
import { addDays, sameDateMonthsLater } from './calendar-date';
import type { PausedSpan } from './pauses';
import type { RolledForward } from './working-day';
import { rollForwardToWorkingDay } from './working-day';

/**
 * One period of months, as Regulation 1182/71 counts it, lengthened by the pauses that fell in it.
 *
 * Order: the paused days are added to the period's own last day first, and the weekend/holiday roll-forward
 * (Art. 3(4)) applies once, to the day that gives. A pause suspends the counting of the period's days, so it moves
 * the day the count ends; Art. 3(4) then looks at that day, as it does at the last day of any period. Rolling first
 * and adding after would count the weekend twice (a Saturday moved to Monday, then + 2 paused days = Wednesday,
 * where the period's days actually end on Monday).
 */

export interface PeriodEnd {
  /** The day the period's own count ends: same date `months` later (or that month's last day), plus counted pauses. */
  lastDay: CalendarDay;
  /** lastDay moved, if it was not a working day, to the next one: the deadline. */
  deadline: RolledForward;
  /** The paused spans that lengthened this period. */
  counted: PausedSpan[];
}

/**
 * `startDay` is the day the period runs from, itself not counted (the day of receipt, or the first period's last
 * day for an extension). A pause lengthens the period when it began no later than the period's deadline as it then
 * stood: a pause begun after that cannot bring an expired period back to life.
 */
export function periodEnd(startDay: CalendarDay, months: number, spans: PausedSpan[], country: string): PeriodEnd {
  let lastDay = sameDateMonthsLater(startDay, months);
  let deadline = rollForwardToWorkingDay(lastDay, country);
  const counted: PausedSpan[] = [];
  for (const span of spans) {
    if (span.fromDay > deadline.day) break; // spans are in order: every later one began later still
    counted.push(span);
    lastDay = addDays(lastDay, span.days);
    deadline = rollForwardToWorkingDay(lastDay, country);
  }
  return { lastDay, deadline, counted };
}
