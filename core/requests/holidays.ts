import type HolidaysLibrary from 'date-holidays';
import type { CalendarDay } from './calendar-date';
import { addDays, yearOf } from './calendar-date';

/**
 * A country's public holidays, from date-holidays (a maintained, worldwide calendar) rather than a hand-made list that
 * would go stale with the next moved or new holiday. Only type 'public' counts: Regulation 1182/71 moves a deadline
 * off a public holiday, not off a bank, school or optional one, nor an observance such as Mother's Day.
 */

/** A holiday's name in the two languages Privacy Desk speaks (the library's own wording; its local one where it has no translation). */
export interface HolidayNames {
  en: string;
  fr: string;
}

export interface SupportedCountry {
  /** ISO 3166-1 alpha-2, as settings store it: FR, DE… */
  code: string;
  /** In English, for a settings list. */
  name: string;
}

// Loaded when the register first needs it, not at start: the library and its time-zone data take about 150 ms and
// 30 MB, which every CLI command would otherwise pay (the CLI's start-up is measured against bare Node). The builds
// keep it out of the bundle (external), so it is read from node_modules only by what uses the register's clock.
let library: typeof HolidaysLibrary | undefined;

/** Loads the holiday calendar, once: the register's settings are read through it before any deadline is computed. */
export async function loadHolidayCalendar(): Promise<void> {
  library ??= (await import('date-holidays')).default;
}

function Holidays(): typeof HolidaysLibrary {
  // A programming error, not a user's: every way into the clock reads the register's settings first.
  if (!library) throw new Error('The holiday calendar is not loaded: await loadHolidayCalendar() before computing a deadline.');
  return library;
}

let countryNames: Record<string, string> | undefined;

function countryNamesInEnglish(): Record<string, string> {
  countryNames ??= new (Holidays())().getCountries('en');
  return countryNames;
}

/** Every country the holiday library knows, sorted by code: what settings may offer. */
export function supportedCountries(): SupportedCountry[] {
  return Object.entries(countryNamesInEnglish())
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));
}

export function isSupportedCountry(code: string): boolean {
  return typeof code === 'string' && Object.hasOwn(countryNamesInEnglish(), code);
}

const calendars = new Map<string, HolidaysLibrary>();
const holidaysByYear = new Map<string, Map<CalendarDay, HolidayNames>>();

function calendarOf(country: string): HolidaysLibrary {
  let calendar = calendars.get(country);
  if (!calendar) {
    calendar = new (Holidays())(country);
    calendars.set(country, calendar);
  }
  return calendar;
}

/**
 * The whole days a holiday covers. Its `date` is the local day and time it starts ("2026-05-01 00:00:00"); one that
 * starts later in the day (a half-day holiday from 12:00) leaves that day a working day, so it covers none. A
 * holiday of several days (some countries' Eid, Chinese New Year) covers each of them.
 */
function daysCovered(holiday: { date: string; start: Date; end: Date }): CalendarDay[] {
  if (holiday.date.slice(11, 19) !== '00:00:00') return [];
  const length = Math.max(1, Math.round((holiday.end.getTime() - holiday.start.getTime()) / 86_400_000));
  const first = holiday.date.slice(0, 10);
  return Array.from({ length }, (_, index) => addDays(first, index));
}

function publicHolidaysIn(country: string, year: number): Map<CalendarDay, HolidayNames> {
  const key = `${country}:${year}`;
  const cached = holidaysByYear.get(key);
  if (cached) return cached;
  const found = new Map<CalendarDay, HolidayNames>();
  const calendar = calendarOf(country);
  // The year before too: a holiday of several days that starts on 31 December reaches into this one.
  for (const fromYear of [year - 1, year]) {
    const frenchNames = new Map(calendar.getHolidays(fromYear, 'fr').map((holiday) => [`${holiday.rule}|${holiday.date}`, holiday.name]));
    for (const holiday of calendar.getHolidays(fromYear, 'en')) {
      if (holiday.type !== 'public') continue;
      const names = { en: holiday.name, fr: frenchNames.get(`${holiday.rule}|${holiday.date}`) ?? holiday.name };
      for (const day of daysCovered(holiday)) if (yearOf(day) === year && !found.has(day)) found.set(day, names);
    }
  }
  holidaysByYear.set(key, found);
  return found;
}

/** The public holiday `day` is in `country`, or undefined on any other day. `country` must be supported (isSupportedCountry). */
export function publicHolidayOn(day: CalendarDay, country: string): HolidayNames | undefined {
  return publicHolidaysIn(country, yearOf(day)).get(day);
}
