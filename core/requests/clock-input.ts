import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { daysInMonth } from './calendar-date';
import { isSupportedCountry } from './holidays';
import { isValidTimeZone } from './time-zone';

/**
 * The clock's inputs checked before any arithmetic, each refusal saying which field is wrong and what to write
 * instead (INVALID_INPUT). Moments must carry their offset: without one, "10:00" is a different day in Paris and in
 * New York, and the deadline would depend on the computer that reads it.
 */

export interface ClockSettings {
  /** The DPO's IANA time zone: the day a request was received, and the day a deadline ends, are days there. */
  timeZone: string;
  /** ISO 3166-1 alpha-2 code of the country whose public holidays move a deadline (supportedCountries()). */
  country: string;
  /** Whether a pause for identity checks moves the deadline; when false, pauses are still recorded and shown. */
  pauseStopsClock: boolean;
}

export interface ClockPause {
  /** When the clock was stopped (ISO 8601 with offset). */
  from: string;
  /** When it started again; absent while the pause is still open. */
  to?: string;
}

export interface ClockFacts {
  /** When the request reached the controller (ISO 8601 with offset). */
  receivedAt: string;
  pauses: ClockPause[];
  extension?: { decidedAt: string; personToldAt: string };
}

export interface CheckedPause {
  from: Date;
  to?: Date;
}

export interface CheckedFacts {
  receivedAt: Date;
  pauses: CheckedPause[];
  extension?: { decidedAt: Date; personToldAt: Date };
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;
const EXAMPLE = '2026-03-03T09:12:00+01:00, 2026-03-03T08:12:00Z';
const shown = (value: unknown) => (typeof value === 'string' ? `"${value.length > 60 ? `${value.slice(0, 60)}…` : value}"` : String(value));

function fieldsInRange(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  // Date quietly turns 31 April into 1 May: the day written must exist in its month.
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth(year!, month!) && hour! <= 23 && minute! <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
}

export function parseInstant(value: unknown, field: string): Date {
  const match = typeof value === 'string' ? INSTANT.exec(value) : null;
  const parsed = match && fieldsInRange(match) ? new Date(value as string) : undefined;
  if (!parsed || Number.isNaN(parsed.getTime())) {
    const noOffset = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+$/.test(value);
    throw invalidInput(msg(noOffset ? 'clock.noOffset' : 'clock.notInstant', { field, value: shown(value), example: EXAMPLE }));
  }
  return parsed;
}

export function checkNow(now: unknown): Date {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw invalidInput(msg('clock.badNow', { value: shown(now) }));
  return now;
}

export function checkSettings(settings: ClockSettings): void {
  if (!isValidTimeZone(settings?.timeZone)) {
    throw invalidInput(msg('requests.badTimeZone', { zone: shown(settings?.timeZone) }));
  }
  if (!isSupportedCountry(settings.country)) {
    throw invalidInput(msg('requests.badCountry', { country: shown(settings.country) }));
  }
  if (typeof settings.pauseStopsClock !== 'boolean') throw invalidInput(msg('clock.badPauseSetting', { value: shown(settings.pauseStopsClock) }));
}

export function checkFacts(facts: ClockFacts): CheckedFacts {
  const receivedAt = parseInstant(facts?.receivedAt, 'receivedAt');
  if (!Array.isArray(facts.pauses)) throw invalidInput(msg('clock.pausesNotList'));
  const pauses = facts.pauses.map((pause, index) => checkPause(pause, index, receivedAt));
  const open = pauses.filter((pause) => !pause.to);
  const latestStart = Math.max(...pauses.map((pause) => pause.from.getTime()));
  if (open.length > 1 || (open[0] && open[0].from.getTime() !== latestStart)) {
    throw invalidInput(msg('clock.onePauseOpen'));
  }
  if (!facts.extension) return { receivedAt, pauses };
  return { receivedAt, pauses, extension: checkExtensionMoments(facts.extension.decidedAt, facts.extension.personToldAt, receivedAt, 'extension.') };
}

function checkPause(pause: ClockPause, index: number, receivedAt: Date): CheckedPause {
  const from = parseInstant(pause?.from, `pauses[${index}].from`);
  if (from < receivedAt) throw invalidInput(msg('clock.pauseBeforeReceipt', { field: `pauses[${index}].from`, value: shown(pause.from) }));
  if (pause.to === undefined) return { from };
  const to = parseInstant(pause.to, `pauses[${index}].to`);
  if (to < from) throw invalidInput(msg('clock.pauseEndsBeforeStart', { field: `pauses[${index}].to`, value: shown(pause.to), from: shown(pause.from) }));
  return { from, to };
}

export function checkExtensionMoments(decidedAt: string, personToldAt: string, receivedAt: Date, prefix = ''): { decidedAt: Date; personToldAt: Date } {
  const moments = { decidedAt: parseInstant(decidedAt, `${prefix}decidedAt`), personToldAt: parseInstant(personToldAt, `${prefix}personToldAt`) };
  for (const [field, moment] of Object.entries(moments)) {
    if (moment < receivedAt) throw invalidInput(msg('clock.extensionBeforeReceipt', { field: `${prefix}${field}` }));
  }
  return moments;
}
