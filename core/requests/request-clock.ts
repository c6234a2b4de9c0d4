import type { RegisterSettings, RequestClock } from '../../shared/requests';
import { DUE_SOON_DAYS } from '../../shared/requests';
import { checkExtension, computeDeadline, type CalendarDay, type ClockFacts } from './clock';
import type { RequestState } from './register-events';
import { dayInZone } from './time-zone';

/** The register's use of the legal clock (core/requests/clock.ts): a request's deadline and its state today. */

const factsOf = (state: Pick<RequestState, 'receivedAt' | 'pauses' | 'extension'>): ClockFacts => ({
  receivedAt: state.receivedAt,
  pauses: state.pauses.map((pause) => ({ ...pause })),
  ...(state.extension ? { extension: { decidedAt: state.extension.decidedAt, personToldAt: state.extension.personToldAt } } : {}),
});

export function requestClock(state: RequestState, settings: RegisterSettings, now: number): RequestClock {
  const deadline = computeDeadline(factsOf(state), settings, new Date(now));
  const paused = state.pauses.some((pause) => pause.to === undefined);
  const closed = state.status === 'answered' || state.status === 'refused';
  const clockState: RequestClock['state'] = closed ? 'closed' : paused && settings.pauseStopsClock ? 'paused' : deadline.overdue ? 'overdue' : deadline.daysLeft <= DUE_SOON_DAYS ? 'due-soon' : 'open';
  return {
    deadline: deadline.deadline,
    firstDeadline: deadline.firstDeadline,
    ...(deadline.extended ? { extendedDeadline: deadline.deadline } : {}),
    pausedDays: deadline.daysAddedByPauses,
    daysLeft: deadline.daysLeft,
    state: clockState,
  };
}

/** When an extension comes too late (decided, or the person told, after the first period's last day): that day and the late day; else null. */
export function lateExtension(state: RequestState, decidedAt: string, personToldAt: string, settings: RegisterSettings): { deadline: CalendarDay; late: CalendarDay } | null {
  const check = checkExtension(factsOf({ ...state, extension: undefined }), settings, decidedAt, personToldAt);
  if (check.ok || check.reason === 'already-extended') return null;
  const late = [dayInZone(new Date(decidedAt), settings.timeZone), dayInZone(new Date(personToldAt), settings.timeZone)].sort().pop() as CalendarDay;
  return { deadline: check.firstDeadline, late };
}
