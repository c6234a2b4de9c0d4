import type { CalendarDay } from './calendar-date';
import { daysBetween } from './calendar-date';
import type { CheckedFacts, ClockFacts, ClockSettings } from './clock-input';
import { checkExtensionMoments, checkFacts, checkNow, checkSettings } from './clock-input';
import type { PausedSpan } from './pauses';
import { pausedSpans } from './pauses';
import type { PeriodEnd } from './period';
import { periodEnd } from './period';
import { dayInZone, endOfDayInZone, systemTimeZone } from './time-zone';
import type { NonWorkingDay, NonWorkingReason } from './working-day';

/**
 * The legal clock of a request (GDPR Art. 12(3)): one month from receipt, extendable once by two further months,
 * counted as Regulation (EEC, Euratom) No 1182/71, Art. 3 counts periods of months. Pure: no I/O, no wall clock
 * (`now` comes in). docs/REQUEST-CLOCK.md gives the rules in plain words, their sources and worked examples.
 */

export type { ClockFacts, ClockPause, ClockSettings } from './clock-input';
export type { CalendarDay } from './calendar-date';
export type { HolidayNames, SupportedCountry } from './holidays';
export type { NonWorkingDay, NonWorkingReason } from './working-day';
export type { PausedSpan } from './pauses';
export { isValidTimeZone, systemTimeZone } from './time-zone';
export { isSupportedCountry, loadHolidayCalendar, supportedCountries } from './holidays';

export const DEFAULT_CLOCK_SETTINGS: Readonly<ClockSettings> = Object.freeze({ timeZone: systemTimeZone(), country: 'FR', pauseStopsClock: true });

export type ExtensionRefusalReason = 'after-first-deadline' | 'person-told-after-first-deadline' | 'already-extended';

export type ExtensionCheck = { ok: true; firstDeadline: CalendarDay } | { ok: false; reason: ExtensionRefusalReason; firstDeadline: CalendarDay };

/** Why pauses did not move the deadline: the settings say they do not, or the pause began once the period had ended. */
export type PauseNotCountedReason = 'pauses-do-not-stop-clock' | 'began-after-deadline';

export interface ClockPausedSpan extends PausedSpan {
  counted: boolean;
  notCountedBecause?: PauseNotCountedReason;
}

export interface Deadline {
  /** The day of receipt in the DPO's zone: not itself counted. */
  receivedDay: CalendarDay;
  /** The last day of the first month (pauses included): the extension must be decided, and the person told, by its end. */
  firstDeadline: CalendarDay;
  /** The first period's own last day, when it fell on a weekend or public holiday and firstDeadline was moved off it. */
  firstDeadlineMovedFrom?: CalendarDay;
  firstDeadlineMovedBecause?: NonWorkingReason;
  /** Calendar days the clock was recorded as paused (whether or not they moved the deadline). */
  pausedDays: number;
  /** The paused days that moved the deadline: 0 when settings say pauses do not stop the clock. */
  daysAddedByPauses: number;
  /** Each paused span of days (overlapping pauses merged), and whether it counted. */
  pauses: ClockPausedSpan[];
  /** True when a valid extension applies: the deadline is then the extended one. */
  extended: boolean;
  /** Why an extension given in the facts does not apply (the deadline is then the first one). */
  extensionRefused?: ExtensionRefusalReason;
  /** The last day to answer, inclusive: it ends at deadlineEndsAt. */
  deadline: CalendarDay;
  /** The last instant of the deadline in the DPO's zone (23:59:59.999, with the offset then in force). */
  deadlineEndsAt: string;
  /** The day the period itself ended, when it was a weekend or public holiday and the deadline was moved off it. */
  movedFrom?: CalendarDay;
  /** Why movedFrom was not a working day (a weekend, or the holiday's name). */
  movedBecause?: NonWorkingReason;
  /** Every day the deadline was moved over, in order (Sat, Sun, Easter Monday…); empty when it did not move. */
  daysSkipped: NonWorkingDay[];
  /** Today in the DPO's zone, from `now`. */
  today: CalendarDay;
  /** Calendar days from today to the deadline: 0 on the deadline day, negative once overdue. */
  daysLeft: number;
  overdue: boolean;
}

interface FirstPeriod {
  receivedDay: CalendarDay;
  spans: PausedSpan[];
  first: PeriodEnd;
}

function firstPeriodOf(facts: CheckedFacts, settings: ClockSettings, today: CalendarDay): FirstPeriod {
  const receivedDay = dayInZone(facts.receivedAt, settings.timeZone);
  const spans = pausedSpans(facts.pauses, settings.timeZone, today);
  const first = periodEnd(receivedDay, 1, settings.pauseStopsClock ? spans : [], settings.country);
  return { receivedDay, spans, first };
}

/** Art. 12(3): the person is told of the extension "within one month of receipt", i.e. by the end of the first deadline. */
function extensionRefusal(moments: { decidedAt: Date; personToldAt: Date }, firstDeadline: CalendarDay, timeZone: string): ExtensionRefusalReason | undefined {
  if (dayInZone(moments.decidedAt, timeZone) > firstDeadline) return 'after-first-deadline';
  if (dayInZone(moments.personToldAt, timeZone) > firstDeadline) return 'person-told-after-first-deadline';
  return undefined;
}

/**
 * The deadline of a request as of `now`. Throws INVALID_INPUT for a bad zone, country or ISO moment; an extension
 * decided too late is not thrown but reported (extensionRefused), so a register imported with one still shows.
 */
export function computeDeadline(facts: ClockFacts, settings: ClockSettings, now: Date): Deadline {
  checkSettings(settings);
  const checked = checkFacts(facts);
  const today = dayInZone(checkNow(now), settings.timeZone);
  const { receivedDay, spans, first } = firstPeriodOf(checked, settings, today);
  const extensionRefused = checked.extension && extensionRefusal(checked.extension, first.deadline.day, settings.timeZone);
  const extended = Boolean(checked.extension) && !extensionRefused;
  // The extension runs from the first period's own last day, before any weekend or holiday move: see period.ts and
  // docs/REQUEST-CLOCK.md ("An extension from a deadline that moved") for why.
  const uncounted = spans.filter((span) => !first.counted.includes(span));
  const final = extended ? periodEnd(first.lastDay, 2, settings.pauseStopsClock ? uncounted : [], settings.country) : first;
  const counted = new Set([...first.counted, ...(extended ? final.counted : [])]);
  const daysLeft = daysBetween(today, final.deadline.day);
  return {
    receivedDay,
    firstDeadline: first.deadline.day,
    ...movedFields(first, 'firstDeadlineMovedFrom', 'firstDeadlineMovedBecause'),
    pausedDays: spans.reduce((sum, span) => sum + span.days, 0),
    daysAddedByPauses: [...counted].reduce((sum, span) => sum + span.days, 0),
    pauses: spans.map((span) => describeSpan(span, counted.has(span), settings.pauseStopsClock)),
    extended,
    ...(extensionRefused ? { extensionRefused } : {}),
    deadline: final.deadline.day,
    deadlineEndsAt: endOfDayInZone(final.deadline.day, settings.timeZone),
    ...movedFields(final, 'movedFrom', 'movedBecause'),
    daysSkipped: final.deadline.skipped,
    today,
    daysLeft,
    overdue: daysLeft < 0,
  };
}

function movedFields<From extends string, Because extends string>(period: PeriodEnd, from: From, because: Because) {
  const firstSkipped = period.deadline.skipped[0];
  if (!firstSkipped) return {};
  return { [from]: firstSkipped.day, [because]: firstSkipped.reason } as Record<From, CalendarDay> & Record<Because, NonWorkingReason>;
}

function describeSpan(span: PausedSpan, counted: boolean, pauseStopsClock: boolean): ClockPausedSpan {
  if (counted) return { ...span, counted };
  return { ...span, counted, notCountedBecause: pauseStopsClock ? 'began-after-deadline' : 'pauses-do-not-stop-clock' };
}

/**
 * Whether an extension decided at `decidedAt`, the person told at `personToldAt`, may be recorded: both by the end
 * of the first deadline (Art. 12(3)), and only once. An open pause counts up to the later of the two moments, as
 * the first deadline stood then.
 */
export function checkExtension(facts: ClockFacts, settings: ClockSettings, decidedAt: string, personToldAt: string): ExtensionCheck {
  checkSettings(settings);
  const checked = checkFacts(facts);
  const moments = checkExtensionMoments(decidedAt, personToldAt, checked.receivedAt);
  const asOf = moments.decidedAt > moments.personToldAt ? moments.decidedAt : moments.personToldAt;
  const firstDeadline = firstPeriodOf(checked, settings, dayInZone(asOf, settings.timeZone)).first.deadline.day;
  if (checked.extension) return { ok: false, reason: 'already-extended', firstDeadline };
  const reason = extensionRefusal(moments, firstDeadline, settings.timeZone);
  return reason ? { ok: false, reason, firstDeadline } : { ok: true, firstDeadline };
}
