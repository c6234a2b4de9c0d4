import { describe, expect, it } from 'vitest';
import { matchesAuditFilter, type AuditEntry, type AuditEntryAt, type AuditFilter, type AuditReading } from '../shared/audit';
import { createFileAuditQuery } from './audit-query-file';

const base = { profileId: 'p1', profileName: 'One', baseUrl: 'http://127.0.0.1:4010', operator: 'dpo', appVersion: 'test', via: 'app', action: 'delete' } as const;
// Twelve acts of two entries (attempted, then done), every third under REQ-7, the last on the next day.
const ENTRIES: AuditEntryAt[] = Array.from({ length: 24 }, (_, index): AuditEntryAt => {
  const act = Math.floor(index / 2);
  const entry: AuditEntry = { ...base, at: `2026-11-${act === 11 ? 22 : 21}T10:${String(index).padStart(2, '0')}:00.000+01:00`, actId: `act-${act}`, uid: `user-${act % 5}`, outcome: index % 2 === 0 ? 'attempted' : 'done', ...(act % 3 === 0 ? { reference: 'REQ-7' } : {}) };
  return { ...entry, line: index + 1 };
});
const reading: AuditReading = { entries: ENTRIES, corrupt: [{ line: 25, problem: 'not JSON', excerpt: '{oops' }], verdict: { ok: true, entries: 24, headHash: 'f'.repeat(64), chainId: 'c' }, outcomeMissing: [] };

describe('the local trail read a page at a time (audit.queryPage over audit.jsonl)', () => {
  const query = createFileAuditQuery('/data/audit.jsonl', async () => reading);

  it.each<AuditFilter>([{}, { reference: 'req-7' }, { uid: 'user-1' }, { outcome: 'done', since: '2026-11-22' }, { uid: 'nobody' }])('pages newest first through what the rule keeps, each act whole: %j', async (filter) => {
    const expected = ENTRIES.filter((entry) => matchesAuditFilter(entry, filter)).map((entry) => entry.line).reverse();
    const seen: number[] = [];
    let cursor: number | undefined;
    for (;;) {
      const page = await query.queryPage({ filter, cursor, limit: 3 });
      if (cursor === undefined) {
        expect(page.count).toEqual({ value: expected.length, exact: true });
        expect(page.corrupt).toHaveLength(1);
        expect(page).toMatchObject({ store: 'file', where: '/data/audit.jsonl', head: { entries: 24, hash: 'f'.repeat(64) } });
      }
      const matched = page.entries.filter((entry) => matchesAuditFilter(entry, filter) && (cursor === undefined || entry.line < cursor)).map((entry) => entry.line).reverse();
      seen.push(...matched.slice(0, page.matched));
      // An act's other entries come with it: never half an act.
      for (const entry of page.entries) expect(page.entries.filter((other) => other.actId === entry.actId)).toHaveLength(2);
      if (page.nextCursor === null) break;
      expect(page.matched).toBe(3);
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(expected);
  });
});
