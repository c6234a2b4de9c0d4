import type { CalendarDay } from './calendar-date';
import { addDays } from './calendar-date';

/**
 * Which calendar day an instant falls on in a time zone, and when a day ends there. Built on Intl (the zone data
 * Node carries), so daylight-saving changes are the zone's own and nothing here is hand-made.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instantMs: number, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const dayOfWall = (wall: WallClock): CalendarDay => `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;

/** The zone this computer is set to: the default for a DPO who set none. */
export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * An IANA zone name Node knows (Europe/Paris, America/New_York, UTC). A fixed offset such as +01:00 is refused even
 * where Intl takes it: it ignores summer time, so half the year's days would start an hour off.
 */
export function isValidTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name.trim() === '' || /^[+\-\u2212]?\d/.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/** The calendar day on which `instant` falls in `timeZone`. */
export function dayInZone(instant: Date, timeZone: string): CalendarDay {
  return dayOfWall(wallClock(instant.getTime(), timeZone));
}

// No zone is more than 14 hours from UTC; a day that begins late (a midnight skipped by summer time) stays within 15.
const SEARCH_HOURS = 15 * 3_600_000;

/** The first instant (ms) of `day` in `timeZone`: found by bisection, so a skipped or repeated midnight needs no special case. */
function startOfDayMs(day: CalendarDay, timeZone: string): number {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  let before = utcMidnight - SEARCH_HOURS; // still the day before
  let atOrAfter = utcMidnight + SEARCH_HOURS; // already the day
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (dayOfWall(wallClock(middle, timeZone)) >= day) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter;
}

/** ISO 8601 with the zone's offset at that instant, to the millisecond (2027-03-01T23:59:59.999+01:00). */
export function isoInZone(instantMs: number, timeZone: string): string {
  const wall = wallClock(instantMs, timeZone);
  const wholeSecondMs = Math.floor(instantMs / 1000) * 1000;
  const offsetMinutes = Math.round((Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - wholeSecondMs) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${dayOfWall(wall)}T${pad(wall.hour)}:${pad(wall.minute)}:${pad(wall.second)}.${pad(instantMs - wholeSecondMs, 3)}${offset}`;
}

/** The last instant of `day` in `timeZone` (23:59:59.999 on most days), as ISO 8601 with the offset then in force. */
export function endOfDayInZone(day: CalendarDay, timeZone: string): string {
  return isoInZone(startOfDayMs(addDays(day, 1), timeZone) - 1, timeZone);
}
