import type { CalendarDay } from './calendar-date';
import { daysBetween, laterDay } from './calendar-date';
import type { CheckedPause } from './clock-input';
import { dayInZone } from './time-zone';

/**
 * Pauses for identity checks as whole calendar days in the DPO's zone. A pause from 3 March (any hour) to 5 March
 * (any hour) is 2 days: the days between the day it began and the day it ended, the way Regulation 1182/71 leaves
 * out the day of the event a period runs from. A pause begun and ended on the same day is 0 days, and one still
 * open counts up to today.
 */

export interface PausedSpan {
  /** The day the clock stopped. */
  fromDay: CalendarDay;
  /** The day it started again (today while still open). */
  untilDay: CalendarDay;
  days: number;
  open: boolean;
}

/** The pauses as spans of days, in order; pauses that overlap are merged, so no day is counted twice. */
export function pausedSpans(pauses: CheckedPause[], timeZone: string, today: CalendarDay): PausedSpan[] {
  const spans = pauses
    .map((pause) => {
      const fromDay = dayInZone(pause.from, timeZone);
      // An open pause dated after today (a clock set wrong) counts nothing yet rather than a negative number.
      const untilDay = pause.to ? dayInZone(pause.to, timeZone) : laterDay(fromDay, today);
      return { fromDay, untilDay, open: !pause.to };
    })
    .sort((a, b) => a.fromDay.localeCompare(b.fromDay));
  const merged: Omit<PausedSpan, 'days'>[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.fromDay <= last.untilDay) {
      last.untilDay = laterDay(last.untilDay, span.untilDay);
      last.open ||= span.open;
    } else merged.push({ ...span });
  }
  return merged.map((span) => ({ ...span, days: daysBetween(span.fromDay, span.untilDay) }));
}
