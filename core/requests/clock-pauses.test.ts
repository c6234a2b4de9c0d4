import { beforeAll, describe, expect, it } from 'vitest';
import type { ClockFacts, ClockSettings } from './clock';
import { checkExtension, computeDeadline, loadHolidayCalendar } from './clock';

// The register loads the holiday calendar before its first deadline; so do these tests.
beforeAll(loadHolidayCalendar);

// Pauses for identity checks: whole calendar days in the DPO's zone, added to the period's own last day before the
// weekend/holiday roll-forward (period.ts says why; docs/REQUEST-CLOCK.md words it for a DPO).

const PARIS: ClockSettings = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true };
const NOW = new Date('2020-01-01T12:00:00Z');
// Received Tuesday 20 January 2026: without pauses, the deadline is Friday 20 February.
const received = (pauses: ClockFacts['pauses'], more: Partial<ClockFacts> = {}): ClockFacts => ({ receivedAt: '2026-01-20T10:00:00+01:00', pauses, ...more });

describe('a pause moves the deadline by the paused days', () => {
  it('a pause over a month end: 30 January to 2 February is 3 days', () => {
    const result = computeDeadline(received([{ from: '2026-01-30T09:00:00+01:00', to: '2026-02-02T15:00:00+01:00' }]), PARIS, NOW);
    // The days from the day it began to the day it ended, across the month's end: 31 Jan, 1 Feb, 2 Feb.
    expect(result.pausedDays).toBe(3);
    expect(result.daysAddedByPauses).toBe(3);
    // 20 February + 3 = Monday 23 February.
    expect(result.deadline).toBe('2026-02-23');
    expect(result.pauses).toEqual([{ fromDay: '2026-01-30', untilDay: '2026-02-02', days: 3, open: false, counted: true }]);
  });

  it('several pauses add up; overlapping ones are counted once', () => {
    const two = computeDeadline(received([{ from: '2026-01-21T09:00:00+01:00', to: '2026-01-23T09:00:00+01:00' }, { from: '2026-01-26T09:00:00+01:00', to: '2026-01-29T09:00:00+01:00' }]), PARIS, NOW);
    // 2 + 3 days: 20 February + 5 = Wednesday 25 February.
    expect(two.pausedDays).toBe(5);
    expect(two.deadline).toBe('2026-02-25');
    // 21–23 and 22–24 January share a day: 21 to 24 is 3 days, not 4.
    const overlapping = computeDeadline(received([{ from: '2026-01-21T09:00:00+01:00', to: '2026-01-23T09:00:00+01:00' }, { from: '2026-01-22T09:00:00+01:00', to: '2026-01-24T09:00:00+01:00' }]), PARIS, NOW);
    expect(overlapping.pausedDays).toBe(3);
  });

  it('a pause begun and ended the same day moves nothing', () => {
    // Calendar days, not hours: a check answered within the day costs no day.
    const result = computeDeadline(received([{ from: '2026-01-21T09:00:00+01:00', to: '2026-01-21T17:00:00+01:00' }]), PARIS, NOW);
    expect(result).toMatchObject({ pausedDays: 0, deadline: '2026-02-20' });
  });

  it('a pause still open counts up to today in the zone', () => {
    const open = received([{ from: '2026-01-30T09:00:00+01:00' }]);
    // Today is 4 February in Paris: 5 days so far, so 20 February + 5 = Wednesday 25 February.
    const result = computeDeadline(open, PARIS, new Date('2026-02-04T12:00:00+01:00'));
    expect(result.pauses[0]).toMatchObject({ open: true, untilDay: '2026-02-04', days: 5 });
    expect(result.deadline).toBe('2026-02-25');
    // A day later the deadline has moved with it.
    expect(computeDeadline(open, PARIS, new Date('2026-02-05T12:00:00+01:00')).deadline).toBe('2026-02-26');
  });

  it('with pauseStopsClock false, pauses are recorded but the deadline does not move', () => {
    const result = computeDeadline(received([{ from: '2026-01-30T09:00:00+01:00', to: '2026-02-02T15:00:00+01:00' }]), { ...PARIS, pauseStopsClock: false }, NOW);
    // The days are still shown (the register keeps them); the setting only stops them from counting.
    expect(result.pausedDays).toBe(3);
    expect(result.daysAddedByPauses).toBe(0);
    expect(result.pauses[0]).toMatchObject({ counted: false, notCountedBecause: 'pauses-do-not-stop-clock' });
    expect(result.deadline).toBe('2026-02-20');
  });

  it('paused days are added before the weekend roll-forward, so a weekend is not counted twice', () => {
    // Received 14 February 2026: the period ends Saturday 14 March. A 2-day pause makes it Monday 16 March — the
    // working day it would have moved to anyway. Rolling first (Monday) and adding after would give Wednesday 18.
    const result = computeDeadline({ receivedAt: '2026-02-14T10:00:00+01:00', pauses: [{ from: '2026-02-16T09:00:00+01:00', to: '2026-02-18T09:00:00+01:00' }] }, PARIS, NOW);
    expect(result.deadline).toBe('2026-03-16');
    expect(result.movedFrom).toBeUndefined();
  });

  it('a pause begun after the deadline cannot bring the period back', () => {
    const result = computeDeadline(received([{ from: '2026-02-24T09:00:00+01:00', to: '2026-03-02T09:00:00+01:00' }]), PARIS, NOW);
    // The period ended on 20 February: the request was already overdue when this pause began.
    expect(result.deadline).toBe('2026-02-20');
    expect(result.pauses[0]).toMatchObject({ days: 6, counted: false, notCountedBecause: 'began-after-deadline' });
    expect(result.daysAddedByPauses).toBe(0);
  });

  it('pauses move the first deadline, and so the latest day to extend', () => {
    const paused = received([{ from: '2026-01-21T09:00:00+01:00', to: '2026-01-26T09:00:00+01:00' }]);
    // 20 February + 5 paused days = Wednesday 25 February: an extension decided on the 24th is in time.
    expect(checkExtension(paused, PARIS, '2026-02-24T10:00:00+01:00', '2026-02-24T10:00:00+01:00')).toEqual({ ok: true, firstDeadline: '2026-02-25' });
    // Extended, the two months run from that day: 25 April 2026 is a Saturday, so Monday 27 April.
    const extension = { decidedAt: '2026-02-24T10:00:00+01:00', personToldAt: '2026-02-24T10:00:00+01:00' };
    expect(computeDeadline({ ...paused, extension }, PARIS, NOW)).toMatchObject({ extended: true, deadline: '2026-04-27' });
  });

  it('a pause during the extension moves the extended deadline', () => {
    const extension = { decidedAt: '2026-02-10T10:00:00+01:00', personToldAt: '2026-02-10T10:00:00+01:00' };
    // Extended: 20 April 2026 (a Monday). A 4-day pause in March, after the first deadline, counts in the extension.
    const result = computeDeadline(received([{ from: '2026-03-02T09:00:00+01:00', to: '2026-03-06T09:00:00+01:00' }], { extension }), PARIS, NOW);
    expect(result.firstDeadline).toBe('2026-02-20');
    expect(result.deadline).toBe('2026-04-24');
    expect(result.pauses[0]?.counted).toBe(true);
  });
});
