import type { CalendarDay } from './calendar-date';
import { addDays, weekdayOf } from './calendar-date';
import type { HolidayNames } from './holidays';
import { publicHolidayOn } from './holidays';

/**
 * Regulation 1182/71, Art. 3(4): a period whose last day is a public holiday, a Sunday or a Saturday ends with the
 * following working day. Saturdays and Sundays are named by the Regulation itself, whatever a country's usual rest
 * days; public holidays are those of the chosen country (Art. 2(1): the Member State where the act is to be done).
 */

/** Why a day is not a working day. A holiday on a weekend is given as the holiday: its name says more than "weekend". */
export type NonWorkingReason = { kind: 'weekend'; weekday: 'Saturday' | 'Sunday' } | { kind: 'public-holiday'; names: HolidayNames };

export interface NonWorkingDay {
  day: CalendarDay;
  reason: NonWorkingReason;
}

export function nonWorkingReason(day: CalendarDay, country: string): NonWorkingReason | undefined {
  const holiday = publicHolidayOn(day, country);
  if (holiday) return { kind: 'public-holiday', names: holiday };
  const weekday = weekdayOf(day);
  if (weekday === 6) return { kind: 'weekend', weekday: 'Saturday' };
  if (weekday === 0) return { kind: 'weekend', weekday: 'Sunday' };
  return undefined;
}

export interface RolledForward {
  /** The first working day on or after the day asked about. */
  day: CalendarDay;
  /** The days passed over, in order, each with its reason; empty when the day asked about was a working day. */
  skipped: NonWorkingDay[];
}

// No country rests for a year; a calendar that did would be a broken one, not a reason to loop for ever.
const MOST_DAYS_SKIPPED = 366;

/** The last day of a period moved, if need be, to the next working day (Art. 3(4)). */
export function rollForwardToWorkingDay(day: CalendarDay, country: string): RolledForward {
  const skipped: NonWorkingDay[] = [];
  let current = day;
  for (let reason = nonWorkingReason(current, country); reason; reason = nonWorkingReason(current, country)) {
    if (skipped.length >= MOST_DAYS_SKIPPED) throw new Error(`No working day within a year after ${day} in ${country}'s calendar`);
    skipped.push({ day: current, reason });
    current = addDays(current, 1);
  }
  return { day: current, skipped };
}
