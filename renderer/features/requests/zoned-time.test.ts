import { describe, expect, it } from 'vitest';
import { instantOf, wallTimeIn } from './zoned-time';

describe('wall times in the register’s zone', () => {
  it('reads a typed time in the zone, with its offset that day', () => {
    expect(instantOf('2026-01-31T23:30', 'Europe/Paris')).toBe('2026-01-31T23:30:00+01:00');
    expect(instantOf('2026-07-01T09:00', 'Europe/Paris')).toBe('2026-07-01T09:00:00+02:00');
    expect(instantOf('2026-03-03T09:12', 'America/New_York')).toBe('2026-03-03T09:12:00-05:00');
    expect(instantOf('not a time', 'Europe/Paris')).toBeUndefined();
  });

  it('says now in the zone, not in this computer’s', () => {
    expect(wallTimeIn('Europe/Paris', Date.parse('2026-01-31T23:30:00Z'))).toBe('2026-02-01T00:30');
    expect(wallTimeIn('UTC', Date.parse('2026-01-31T23:30:00Z'))).toBe('2026-01-31T23:30');
  });
});
