import { beforeAll, describe, expect, it } from 'vitest';
import { isPrivacyDeskError } from '../../shared/errors';
import type { ClockFacts, ClockSettings } from './clock';
import { checkExtension, computeDeadline, DEFAULT_CLOCK_SETTINGS, isSupportedCountry, isValidTimeZone, supportedCountries, systemTimeZone, loadHolidayCalendar } from './clock';

// The register loads the holiday calendar before its first deadline; so do these tests.
beforeAll(loadHolidayCalendar);

const PARIS: ClockSettings = { timeZone: 'Europe/Paris', country: 'FR', pauseStopsClock: true };
const NOW = new Date('2026-03-01T12:00:00Z');
const RECEIVED = '2026-02-14T10:00:00+01:00';

/** The INVALID_INPUT message computeDeadline throws, so each test reads what a DPO would be told. */
function refusal(facts: ClockFacts, settings: ClockSettings = PARIS, now: Date = NOW): string {
  try {
    computeDeadline(facts, settings, now);
  } catch (error) {
    if (isPrivacyDeskError(error) && error.code === 'INVALID_INPUT') return error.message;
    throw error;
  }
  throw new Error('accepted');
}

describe('settings', () => {
  it('default to the system zone, France and pauses that stop the clock', () => {
    // The zone is the computer's until the DPO sets one; France is where the product's first users are.
    expect(DEFAULT_CLOCK_SETTINGS).toEqual({ timeZone: systemTimeZone(), country: 'FR', pauseStopsClock: true });
    expect(isValidTimeZone(DEFAULT_CLOCK_SETTINGS.timeZone)).toBe(true);
  });

  it('take IANA zone names and refuse the rest, fixed offsets included', () => {
    for (const zone of ['Europe/Paris', 'America/New_York', 'UTC', 'Asia/Kolkata']) expect(isValidTimeZone(zone), zone).toBe(true);
    // A fixed offset ignores summer time, so half the year's days would begin an hour off.
    for (const zone of ['Europe/Atlantis', '', '+01:00', '-05:00', 'CET+1']) expect(isValidTimeZone(zone), zone).toBe(false);
  });

  it('offer the countries of the holiday library, by two-letter code', () => {
    const countries = supportedCountries();
    expect(countries).toContainEqual({ code: 'FR', name: 'France' });
    expect(countries.some((country) => country.code === 'DE')).toBe(true);
    expect(isSupportedCountry('FR')).toBe(true);
    // Codes are stored in capitals, as the library names them; anything else is refused, not guessed.
    expect(isSupportedCountry('fr')).toBe(false);
    expect(isSupportedCountry('XX')).toBe(false);
  });

  it('are checked before any date is computed, each refusal saying what to write', () => {
    expect(refusal({ receivedAt: RECEIVED, pauses: [] }, { ...PARIS, timeZone: 'Europe/Atlantis' })).toMatch(/"Europe\/Atlantis" is not a time zone this computer knows: give an IANA name such as Europe\/Paris/);
    expect(refusal({ receivedAt: RECEIVED, pauses: [] }, { ...PARIS, country: 'XX' })).toMatch(/"XX" is not a country the holiday calendar knows: give its two-letter code, such as FR or DE/);
  });
});

describe('moments must be ISO 8601 with their offset', () => {
  it('refuses a moment without offset: its day would depend on the computer reading it', () => {
    expect(refusal({ receivedAt: '2026-02-14T10:00:00', pauses: [] })).toMatch(/receivedAt "2026-02-14T10:00:00" has no time zone offset: add Z or the offset/);
  });

  it('refuses what is not a date and time, or a day that does not exist', () => {
    expect(refusal({ receivedAt: 'yesterday', pauses: [] })).toMatch(/receivedAt "yesterday" is not an ISO 8601 date and time with its offset/);
    // 31 April does not exist (Date would quietly read 1 May).
    expect(refusal({ receivedAt: '2026-04-31T10:00:00+02:00', pauses: [] })).toMatch(/not an ISO 8601 date/);
    expect(refusal({ receivedAt: '2026-02-14', pauses: [] })).toMatch(/not an ISO 8601 date/);
  });

  it('refuses pauses that cannot have happened', () => {
    expect(refusal({ receivedAt: RECEIVED, pauses: [{ from: '2026-02-13T10:00:00+01:00' }] })).toMatch(/pauses\[0\]\.from .* before the request was received/);
    expect(refusal({ receivedAt: RECEIVED, pauses: [{ from: '2026-02-16T10:00:00+01:00', to: '2026-02-15T10:00:00+01:00' }] })).toMatch(/pauses\[0\]\.to .* before the pause began/);
    // Two pauses open at once, or an open one followed by another: the clock cannot stop twice.
    const twoOpen = [{ from: '2026-02-16T10:00:00+01:00' }, { from: '2026-02-17T10:00:00+01:00' }];
    expect(refusal({ receivedAt: RECEIVED, pauses: twoOpen })).toMatch(/Only the latest pause may still be open/);
    const openThenClosed = [{ from: '2026-02-16T10:00:00+01:00' }, { from: '2026-02-17T10:00:00+01:00', to: '2026-02-18T10:00:00+01:00' }];
    expect(refusal({ receivedAt: RECEIVED, pauses: openThenClosed })).toMatch(/Only the latest pause may still be open/);
  });

  it('refuses an extension dated before the request, and a `now` that is no date', () => {
    expect(() => checkExtension({ receivedAt: RECEIVED, pauses: [] }, PARIS, '2026-02-01T10:00:00+01:00', '2026-02-20T10:00:00+01:00')).toThrow(/decidedAt is before the request was received/);
    expect(refusal({ receivedAt: RECEIVED, pauses: [] }, PARIS, new Date('not a date'))).toMatch(/The current time is not a valid date/);
  });
});
