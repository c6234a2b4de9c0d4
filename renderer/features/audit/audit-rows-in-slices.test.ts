import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditFilter } from '../../../shared/audit';
import { filterAuditRowsInSlices, SLICE_MS } from './audit-rows-in-slices';
import { filterAuditRows, type LinedAuditEntry } from './group-acts';

const base = { profileId: 'sandbox', profileName: 'Sandbox', baseUrl: 'http://127.0.0.1:4010', via: 'app' } as const;

/** Acts of three entries (attempt, done, check), every seventh entry a lone one without an actId. */
function trail(count: number): LinedAuditEntry[] {
  return Array.from({ length: count }, (_, index): LinedAuditEntry => {
    const act = Math.floor(index / 3);
    const at = new Date(Date.UTC(2026, 0, 1 + (act % 20), 9, 0, index)).toISOString();
    const entry: AuditEntry = { ...base, at, action: 'anonymize', uid: `user-${act}`, reference: `REQ-${act % 9}`, outcome: (['attempted', 'done', 'verification'] as const)[index % 3]! };
    return { ...entry, ...(index % 7 === 0 ? {} : { actId: `act-${act}` }), line: index + 1 };
  });
}

// Each reading of the clock a millisecond later: a slice ends after SLICE_MS readings, whatever the machine.
function aClockThatTicksOnEachReading() {
  let now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 1));
}

afterEach(() => vi.restoreAllMocks());

describe('audit rows in slices', () => {
  const entries = trail(3_000);
  const corrupt = [{ line: 3_001, problem: 'Not JSON', excerpt: '{oops' }];

  it.each<[string, AuditFilter]>([
    ['no filter', {}],
    ['a reference', { reference: 'req-4' }],
    ['a day', { since: '2026-01-03', until: '2026-01-05' }],
  ])('gives the rows filterAuditRows gives, with %s', async (_, filter) => {
    const sliced = await filterAuditRowsInSlices(entries, corrupt, filter, new AbortController().signal);
    expect(sliced).toEqual(filterAuditRows(entries, corrupt, filter));
  });

  it('gives the page back between slices: a task queued before it runs before the rows are ready', async () => {
    aClockThatTicksOnEachReading();
    const order: string[] = [];
    setTimeout(() => order.push('the page'), 0);
    await filterAuditRowsInSlices(trail(50 * SLICE_MS), [], {}, new AbortController().signal).then(() => order.push('rows'));
    expect(order).toEqual(['the page', 'rows']);
  });

  it('stops at the next slice once aborted, with nothing', async () => {
    aClockThatTicksOnEachReading();
    const stale = new AbortController();
    const rows = filterAuditRowsInSlices(trail(50 * SLICE_MS), [], {}, stale.signal);
    stale.abort();
    expect(await rows).toBeUndefined();
  });
});
