import { beforeAll, describe, expect, it } from 'vitest';
import type { ClockFacts, ClockSettings } from './clock';
import { checkExtension, computeDeadline, loadHolidayCalendar } from './clock';

// The register loads the holiday calendar before its first deadline; so do these tests.
beforeAll(loadHolidayCalendar);

// Every date below was checked against a calendar and the holiday library; the comment on each expectation names
// the rule it checks (docs/REQUEST-CLOCK.md words them for a DPO).

const PARIS: ClockSettings = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true };
// Early enough that no request below is overdue unless a test says so; days-left tests pass their own `now`.
const NOW = new Date('2020-01-01T12:00:00Z');

const facts = (receivedAt: string, more: Partial<ClockFacts> = {}): ClockFacts => ({ receivedAt, pauses: [], ...more });
const deadlineOf = (receivedAt: string, settings: ClockSettings = PARIS, now = NOW) => computeDeadline(facts(receivedAt), settings, now);

describe('one month from receipt, the day of receipt not counted (Reg. 1182/71 Art. 3(1), 3(2)(c))', () => {
  it('ends on the same date next month', () => {
    const result = deadlineOf('2026-05-30T10:00:00+02:00');
    expect(result.receivedDay).toBe('2026-05-30');
    // Same date in the next month, a Tuesday: nothing to move.
    expect(result.deadline).toBe('2026-06-30');
    expect(result.movedFrom).toBeUndefined();
    expect(result.daysSkipped).toEqual([]);
  });

  it('received 31 January: the end of February, 28 days in 2027 and 29 in 2028', () => {
    const in2027 = deadlineOf('2027-01-31T10:00:00+01:00');
    // February 2027 has no 31st: its last day, 28 February — a Sunday, so Monday 1 March (Art. 3(4)).
    expect(in2027.firstDeadlineMovedFrom).toBe('2027-02-28');
    expect(in2027.deadline).toBe('2027-03-01');
    // 2028 is a leap year: 29 February, a Tuesday, stays.
    expect(deadlineOf('2028-01-31T10:00:00+01:00').deadline).toBe('2028-02-29');
  });

  it('received on the 30th', () => {
    // 30 January → last day of February (no 30 February): Saturday 28 Feb 2026, moved to Monday 2 March.
    const in2026 = deadlineOf('2026-01-30T10:00:00+01:00');
    expect(in2026.movedFrom).toBe('2026-02-28');
    expect(in2026.deadline).toBe('2026-03-02');
    // Leap year: 29 February 2028, a Tuesday.
    expect(deadlineOf('2028-01-30T10:00:00+01:00').deadline).toBe('2028-02-29');
    // A month that has a 30th keeps it: 30 November → Wednesday 30 December.
    expect(deadlineOf('2026-11-30T10:00:00+01:00').deadline).toBe('2026-12-30');
  });

  it('received on the 31st', () => {
    // The next month has 30 days: its last day (Art. 3(2)(c), second sentence).
    expect(deadlineOf('2026-03-31T10:00:00+02:00').deadline).toBe('2026-04-30');
    expect(deadlineOf('2026-08-31T10:00:00+02:00').deadline).toBe('2026-09-30');
    // The next month has a 31st: kept (31 August 2026 is a Monday).
    expect(deadlineOf('2026-07-31T10:00:00+02:00').deadline).toBe('2026-08-31');
    // Across the year's end: 31 January 2027 is a Sunday, so Monday 1 February.
    const newYear = deadlineOf('2026-12-31T10:00:00+01:00');
    expect(newYear.movedFrom).toBe('2027-01-31');
    expect(newYear.deadline).toBe('2027-02-01');
  });
});

describe('a last day on a weekend or public holiday moves to the next working day (Art. 3(4))', () => {
  it('a Saturday: moved to Monday, both weekend days skipped', () => {
    const result = deadlineOf('2026-02-14T10:00:00+01:00');
    // 14 March 2026 is a Saturday; Monday 16 March is the next working day.
    expect(result.deadline).toBe('2026-03-16');
    expect(result.movedFrom).toBe('2026-03-14');
    expect(result.movedBecause).toEqual({ kind: 'weekend', weekday: 'Saturday' });
    expect(result.daysSkipped.map((skipped) => skipped.day)).toEqual(['2026-03-14', '2026-03-15']);
  });

  it('a Sunday: moved to Monday', () => {
    const result = deadlineOf('2026-02-15T10:00:00+01:00');
    // 15 March 2026 is a Sunday.
    expect(result.deadline).toBe('2026-03-16');
    expect(result.movedBecause).toEqual({ kind: 'weekend', weekday: 'Sunday' });
  });

  it('Easter Monday in France: moved to the Tuesday, the holiday named', () => {
    const result = deadlineOf('2026-03-06T10:00:00+01:00');
    // 6 April 2026 is Easter Monday, a French public holiday: Tuesday 7 April.
    expect(result.deadline).toBe('2026-04-07');
    expect(result.movedFrom).toBe('2026-04-06');
    expect(result.movedBecause).toEqual({ kind: 'public-holiday', names: { en: 'Easter Monday', fr: 'Lundi de Pâques' } });
  });

  it('1 May in France, followed by a weekend: moved over all three days', () => {
    const result = deadlineOf('2026-04-01T10:00:00+02:00');
    // Friday 1 May 2026 (Labour Day), then Saturday and Sunday: Monday 4 May.
    expect(result.deadline).toBe('2026-05-04');
    expect(result.movedBecause).toEqual({ kind: 'public-holiday', names: { en: 'Labour Day', fr: 'Fête du travail' } });
    expect(result.daysSkipped.map((skipped) => [skipped.day, skipped.reason.kind])).toEqual([
      ['2026-05-01', 'public-holiday'],
      ['2026-05-02', 'weekend'],
      ['2026-05-03', 'weekend'],
    ]);
  });

  it('another country has its own holidays: 3 October in Germany, not in France', () => {
    // Friday 3 October 2025: German Unity Day moves a German deadline to Monday 6 October…
    const germany = deadlineOf('2025-09-03T10:00:00+02:00', { ...PARIS, timeZone: 'Europe/Berlin', country: 'DE' });
    expect(germany.deadline).toBe('2025-10-06');
    expect(germany.movedBecause?.kind).toBe('public-holiday');
    // …while in France it is an ordinary Friday.
    expect(deadlineOf('2025-09-03T10:00:00+02:00').deadline).toBe('2025-10-03');
    // And 14 July (Tuesday in 2026) is French only: a French deadline moves to the 15th, a German one does not.
    expect(deadlineOf('2026-06-14T10:00:00+02:00').deadline).toBe('2026-07-15');
    expect(deadlineOf('2026-06-14T10:00:00+02:00', { ...PARIS, country: 'DE' }).deadline).toBe('2026-07-14');
  });

  it("a holiday's substitute day counts when the library marks it public", () => {
    // 4 July 2026 is a Saturday; the United States observe it on Friday 3 July. Received the evening of 3 June in New York.
    const result = deadlineOf('2026-06-04T02:00:00Z', { timeZone: 'America/New_York', country: 'US', pauseStopsClock: true });
    expect(result.receivedDay).toBe('2026-06-03');
    expect(result.movedFrom).toBe('2026-07-03');
    expect(result.deadline).toBe('2026-07-06');
  });
});

describe("the day of receipt is a day in the DPO's time zone", () => {
  it('23:30 UTC on 31 January is already 1 February in Paris', () => {
    const paris = deadlineOf('2028-01-31T23:30:00Z');
    // 00:30 on 1 February in Paris: the period runs from 1 February and ends on Wednesday 1 March.
    expect(paris.receivedDay).toBe('2028-02-01');
    expect(paris.deadline).toBe('2028-03-01');
    // The same instant for a DPO in UTC is still 31 January: the end of February (29th, 2028).
    const utc = deadlineOf('2028-01-31T23:30:00Z', { ...PARIS, timeZone: 'UTC' });
    expect(utc.receivedDay).toBe('2028-01-31');
    expect(utc.deadline).toBe('2028-02-29');
  });

  it('New York: an evening request is still the day before in UTC terms', () => {
    const newYork = { ...PARIS, timeZone: 'America/New_York' };
    // 03:00 UTC on 1 March is 22:00 on 28 February in New York: 28 March 2026 (Saturday) → Monday 30 March.
    const evening = deadlineOf('2026-03-01T03:00:00Z', newYork);
    expect(evening.receivedDay).toBe('2026-02-28');
    expect(evening.deadline).toBe('2026-03-30');
    // The deadline ends at midnight New York time, in summer time by then (UTC−4).
    expect(evening.deadlineEndsAt).toBe('2026-03-30T23:59:59.999-04:00');
    // Written with New York's own offset, the same moment gives the same day: the offset is read, not the digits.
    expect(deadlineOf('2026-02-28T22:00:00-05:00', newYork).receivedDay).toBe('2026-02-28');
    // The same instant in Paris is 1 March: Wednesday 1 April.
    expect(deadlineOf('2026-03-01T03:00:00Z').deadline).toBe('2026-04-01');
  });
});

describe('days left and overdue, counted in the zone', () => {
  // Received 14 February 2026 in Paris: deadline Monday 16 March (moved off the weekend), ending 23:59:59.999 +01:00.
  const at = (now: string) => deadlineOf('2026-02-14T10:00:00+01:00', PARIS, new Date(now));

  it('counts whole calendar days to the deadline', () => {
    // Sunday 15 March at noon: one day left.
    expect(at('2026-03-15T12:00:00+01:00')).toMatchObject({ daysLeft: 1, overdue: false });
  });

  it('is 0 and not overdue all through the deadline day, up to its last minute in Paris', () => {
    expect(at('2026-03-16T00:00:00+01:00')).toMatchObject({ today: '2026-03-16', daysLeft: 0, overdue: false });
    // 23:59 in Paris (22:59 UTC).
    expect(at('2026-03-16T22:59:00Z')).toMatchObject({ daysLeft: 0, overdue: false });
    expect(at('2026-03-16T22:59:00Z').deadlineEndsAt).toBe('2026-03-16T23:59:59.999+01:00');
  });

  it('is overdue from midnight in Paris, though UTC is still on the deadline day', () => {
    // 23:10 UTC on the 16th is 00:10 on the 17th in Paris.
    expect(at('2026-03-16T23:10:00Z')).toMatchObject({ today: '2026-03-17', daysLeft: -1, overdue: true });
  });
});

describe('an extension: two further months from the end of the first period (GDPR Art. 12(3))', () => {
  const extension = { decidedAt: '2025-02-20T10:00:00+01:00', personToldAt: '2025-02-20T10:05:00+01:00' };

  it('from a first deadline that itself moved off a weekend, counts from the period’s own last day', () => {
    const result = computeDeadline(facts('2025-02-01T10:00:00+01:00', { extension }), PARIS, NOW);
    // The first period ends on Saturday 1 March 2025; the first deadline is Monday 3 March.
    expect(result.firstDeadline).toBe('2025-03-03');
    expect(result.firstDeadlineMovedFrom).toBe('2025-03-01');
    // Two months from 1 March, not from 3 March (the move is for acting on a working day, not a longer period):
    // 1 May 2025 is Labour Day, so Friday 2 May. Counting from 3 March would give 3 May, a Saturday → 5 May.
    expect(result.extended).toBe(true);
    expect(result.movedFrom).toBe('2025-05-01');
    expect(result.deadline).toBe('2025-05-02');
  });

  it('from 31 January: the end of February, then two months from that day', () => {
    const result = computeDeadline(facts('2025-01-31T10:00:00+01:00', { extension: { decidedAt: '2025-02-10T10:00:00+01:00', personToldAt: '2025-02-10T10:00:00+01:00' } }), PARIS, NOW);
    // First period: Friday 28 February 2025. Two months from the 28th: Monday 28 April (not 30 April, the end of
    // the third month from receipt: the period runs from the first one's last day, as the rule says).
    expect(result.firstDeadline).toBe('2025-02-28');
    expect(result.deadline).toBe('2025-04-28');
  });

  it('may be decided and told on the moved first deadline itself, until its end in the zone', () => {
    const check = checkExtension(facts('2025-02-01T10:00:00+01:00'), PARIS, '2025-03-03T23:30:00+01:00', '2025-03-03T23:45:00+01:00');
    // Monday 3 March is the first deadline (Art. 3(4) moved it there): telling the person that day is in time.
    expect(check).toEqual({ ok: true, firstDeadline: '2025-03-03' });
  });

  it('a late extension is refused with the reason', () => {
    const received = facts('2025-02-01T10:00:00+01:00');
    // Decided ten minutes after midnight in Paris on 4 March: after the first deadline.
    expect(checkExtension(received, PARIS, '2025-03-04T00:10:00+01:00', '2025-03-04T00:15:00+01:00')).toEqual({ ok: false, reason: 'after-first-deadline', firstDeadline: '2025-03-03' });
    // Decided in time, but the person told only on 4 March: Art. 12(3) asks both within the first month.
    expect(checkExtension(received, PARIS, '2025-03-03T18:00:00+01:00', '2025-03-04T09:00:00+01:00')).toEqual({ ok: false, reason: 'person-told-after-first-deadline', firstDeadline: '2025-03-03' });
    // 23:10 UTC on 3 March is already the 4th in Paris: the day is the DPO's.
    expect(checkExtension(received, PARIS, '2025-03-03T23:10:00Z', '2025-03-03T23:10:00Z')).toMatchObject({ ok: false, reason: 'after-first-deadline' });
  });

  it('is refused a second time', () => {
    const extended = facts('2025-02-01T10:00:00+01:00', { extension });
    // The period may be extended once, by two months.
    expect(checkExtension(extended, PARIS, '2025-02-25T10:00:00+01:00', '2025-02-25T10:00:00+01:00')).toEqual({ ok: false, reason: 'already-extended', firstDeadline: '2025-03-03' });
  });

  it('a late extension found in the facts (an import) is reported, not applied', () => {
    const late = { decidedAt: '2025-03-10T10:00:00+01:00', personToldAt: '2025-03-10T10:00:00+01:00' };
    const result = computeDeadline(facts('2025-02-01T10:00:00+01:00', { extension: late }), PARIS, NOW);
    // The deadline stays the first one, and the reason says why.
    expect(result).toMatchObject({ extended: false, extensionRefused: 'after-first-deadline', deadline: '2025-03-03' });
  });
});
