import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../shared/audit';
import { upgradeLegacyEntry } from './legacy-audit-entry';

const old = (outcome: string, errorCode?: string): AuditEntry =>
  ({ at: '2026-01-01T00:00:00.000Z', action: 'delete', uid: 'u', profileId: 'p', profileName: 'P', baseUrl: 'https://x', outcome, via: 'cli', ...(errorCode ? { errorCode } : {}) }) as AuditEntry;

describe('entries written before the outcome model', () => {
  it('read "succeeded" as done and "failed" as the outcome of its code', () => {
    expect(upgradeLegacyEntry(old('succeeded')).outcome).toBe('done');
    expect(upgradeLegacyEntry(old('failed', 'NOT_FOUND')).outcome).toBe('refused');
    expect(upgradeLegacyEntry(old('failed', 'TIMEOUT')).outcome).toBe('unknown');
    expect(upgradeLegacyEntry(old('failed', 'TLS')).outcome).toBe('not-sent');
  });

  it('never guesses done: a failure with no or an unknown code is unknown', () => {
    expect(upgradeLegacyEntry(old('failed')).outcome).toBe('unknown');
    expect(upgradeLegacyEntry(old('failed', 'SOMETHING_NEW')).outcome).toBe('unknown');
  });

  it('leaves today\'s entries as they are', () => {
    for (const outcome of ['attempted', 'done', 'refused', 'not-sent', 'unknown']) expect(upgradeLegacyEntry(old(outcome)).outcome).toBe(outcome);
  });
});
