import { describe, expect, it } from 'vitest';
import type { AuditReading } from '../shared/audit';
import { createAuditPages } from './audit-pages';

/** A trail of `count` entries; each read of it is counted and tagged, so a page says which read it came from. */
function trail(count: number) {
  const reads: AuditReading[] = [];
  const read = async (): Promise<AuditReading> => {
    const reading: AuditReading = {
      entries: Array.from({ length: count }, (_, index) => ({ at: '2026-01-01T09:00:00.000Z', action: 'anonymize', outcome: 'done', uid: `read-${reads.length}-user-${index}`, profileId: 'p', profileName: 'P', baseUrl: 'http://127.0.0.1', via: 'app', line: index + 1 })),
      corrupt: [{ line: count + 1, problem: 'Not JSON', excerpt: '{' }],
      verdict: { ok: true, entries: count, headHash: 'h', chainId: null },
      outcomeMissing: [],
    };
    reads.push(reading);
    return reading;
  };
  return { reads, read };
}

describe('audit pages', () => {
  it('serves one reading in pages: every entry once, in order, with the rest of the reading on each page', async () => {
    const { reads, read } = trail(12);
    const page = createAuditPages(read);
    const first = await page({ from: 0, limit: 5 });
    const second = await page({ reading: first.reading, from: 5, limit: 5 });
    const last = await page({ reading: first.reading, from: 10, limit: 5 });
    expect(reads).toHaveLength(1);
    expect([first, second, last].map((each) => each.reading)).toEqual([first.reading, first.reading, first.reading]);
    expect([...first.entries, ...second.entries, ...last.entries]).toEqual(reads[0]!.entries);
    expect(last).toMatchObject({ total: 12, corrupt: reads[0]!.corrupt, verdict: reads[0]!.verdict });
  });

  it('lets a reading go after its last page: asked for again, the trail is read afresh under another name', async () => {
    const { reads, read } = trail(4);
    const page = createAuditPages(read);
    const whole = await page({ from: 0, limit: 5 });
    const again = await page({ reading: whole.reading, from: 0, limit: 5 });
    expect(reads).toHaveLength(2);
    expect(again.reading).not.toBe(whole.reading);
    expect(again.entries[0]!.uid).toBe('read-1-user-0');
  });

  it('keeps two readings at most: the oldest of three is read afresh', async () => {
    const { reads, read } = trail(10);
    const page = createAuditPages(read);
    const [a, b, c] = [await page({ from: 0, limit: 2 }), await page({ from: 0, limit: 2 }), await page({ from: 0, limit: 2 })];
    expect((await page({ reading: c.reading, from: 2, limit: 2 })).reading).toBe(c.reading);
    expect((await page({ reading: b.reading, from: 2, limit: 2 })).reading).toBe(b.reading);
    expect((await page({ reading: a.reading, from: 2, limit: 2 })).reading).not.toBe(a.reading);
    expect(reads).toHaveLength(4);
  });
});
