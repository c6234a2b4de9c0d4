import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, daysBetween, daysInMonth, sameDateMonthsLater } from './calendar-date';
import { computeDeadline, loadHolidayCalendar } from './clock';
import { dayInZone } from './time-zone';
import { nonWorkingReason } from './working-day';

// The register loads the holiday calendar before its first deadline; so do these tests.
beforeAll(loadHolidayCalendar);

// The rules as properties over many dates, zones and countries, beside the hand-picked edges of clock.test.ts.

const ZONES = ['Europe/Paris', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC'];
const COUNTRIES = ['FR', 'DE', 'IT', 'ES', 'BE', 'US'];
const instant = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2060-12-31T23:59:59Z'), noInvalidDate: true });

describe('the deadline without pauses or extension', () => {
  it('is the first working day on or after the same date next month, and every day passed over is a non-working one', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), fc.constantFrom(...COUNTRIES), (received, timeZone, country) => {
        const result = computeDeadline({ receivedAt: received.toISOString(), pauses: [] }, { timeZone, country, pauseStopsClock: true }, received);
        const periodEnd = sameDateMonthsLater(result.receivedDay, 1);
        // Art. 3(2)(c) then 3(4): start from the period's own end, stop at the first working day.
        expect(result.receivedDay).toBe(dayInZone(received, timeZone));
        expect(nonWorkingReason(result.deadline, country)).toBeUndefined();
        expect(result.daysSkipped.map((skipped) => skipped.day)).toEqual(Array.from({ length: daysBetween(periodEnd, result.deadline) }, (_, index) => addDays(periodEnd, index)));
        expect(result.daysSkipped.every((skipped) => nonWorkingReason(skipped.day, country) !== undefined)).toBe(true);
        // It ends on the deadline day in the zone, and a millisecond later it is the next day there.
        const endsAt = new Date(result.deadlineEndsAt);
        expect(dayInZone(endsAt, timeZone)).toBe(result.deadline);
        expect(dayInZone(new Date(endsAt.getTime() + 1), timeZone)).toBe(addDays(result.deadline, 1));
        // Received today, the days left are the period's length in days, at least 28.
        expect(result.daysLeft).toBe(daysBetween(result.receivedDay, result.deadline));
        expect(result.daysLeft).toBeGreaterThanOrEqual(28);
      }),
      { numRuns: 300 },
    );
  });
});

describe('same date months later', () => {
  it("keeps the date, or takes the month's last day when the month is too short", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2090 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 36 }), (year, month, date, months) => {
        fc.pre(date <= daysInMonth(year, month));
        const day = `${year}-${String(month).padStart(2, '0')}-${String(date).padStart(2, '0')}`;
        const [resultYear, resultMonth, resultDate] = sameDateMonthsLater(day, months).split('-').map(Number) as [number, number, number];
        expect((resultYear - year) * 12 + resultMonth - month).toBe(months);
        expect(resultDate).toBe(Math.min(date, daysInMonth(resultYear, resultMonth)));
      }),
    );
  });
});
