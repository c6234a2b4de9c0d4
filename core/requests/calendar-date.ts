/**
 * Calendar days as plain `YYYY-MM-DD` strings: a day a person reads on a calendar, with no time and no zone.
 * Arithmetic runs on day numbers counted in UTC, where every day has 24 hours, so no daylight-saving change can
 * shift a day. Which day an instant falls on is time-zone.ts's question, not this file's.
 */

/** `YYYY-MM-DD`, e.g. 2027-02-28. */
export type CalendarDay = string;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

interface DayParts {
  year: number;
  month: number; // 1–12
  day: number;
}

function partsOf(day: CalendarDay): DayParts {
  const match = DAY_PATTERN.exec(day);
  if (!match) throw new Error(`Not a calendar day (YYYY-MM-DD): ${day}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

function dayOf({ year, month, day }: DayParts): CalendarDay {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function dayNumber(day: CalendarDay): number {
  const { year, month, day: date } = partsOf(day);
  return Date.UTC(year, month - 1, date) / MS_PER_DAY;
}

function fromDayNumber(number: number): CalendarDay {
  const date = new Date(number * MS_PER_DAY);
  return dayOf({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() });
}

export function isCalendarDay(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const month = Number(match[2]);
  const date = Number(match[3]);
  return month >= 1 && month <= 12 && date >= 1 && date <= daysInMonth(Number(match[1]), month);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  return fromDayNumber(dayNumber(day) + days);
}

/** Whole days from `from` to `to`: 1 from a day to the next, negative when `to` comes first. */
export function daysBetween(from: CalendarDay, to: CalendarDay): number {
  return dayNumber(to) - dayNumber(from);
}

/**
 * The day with the same date `months` months later; where that month is too short for it, that month's last day
 * (31 January + 1 month = 28 or 29 February). This is how Regulation 1182/71, Art. 3(2)(c), ends a period of months.
 */
export function sameDateMonthsLater(day: CalendarDay, months: number): CalendarDay {
  const { year, month, day: date } = partsOf(day);
  const monthIndex = month - 1 + months;
  const targetYear = year + Math.floor(monthIndex / 12);
  const targetMonth = (((monthIndex % 12) + 12) % 12) + 1;
  return dayOf({ year: targetYear, month: targetMonth, day: Math.min(date, daysInMonth(targetYear, targetMonth)) });
}

/** 0 for Sunday to 6 for Saturday, as Date.getDay counts. */
export function weekdayOf(day: CalendarDay): number {
  return new Date(dayNumber(day) * MS_PER_DAY).getUTCDay();
}

export function yearOf(day: CalendarDay): number {
  return partsOf(day).year;
}

export function laterDay(a: CalendarDay, b: CalendarDay): CalendarDay {
  return a >= b ? a : b;
}
