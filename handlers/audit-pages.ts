import { randomUUID } from 'node:crypto';
import type { AuditReading, AuditReadingPage } from '../shared/audit';

/** Readings a window may still be paging through: one being read, and the one a refresh started over it. */
const KEPT_READINGS = 2;

/**
 * audit.readPage: the first page reads the trail and keeps the reading until its last page has gone, so
 * every page comes from the same reading however the trail grows meanwhile. A reading no longer kept
 * (or never known) is read afresh under a new name: the window sees the name change and starts over.
 */
export function createAuditPages(read: () => Promise<AuditReading>) {
  const kept = new Map<string, AuditReading>();
  return async ({ reading, from, limit }: { reading?: string | undefined; from: number; limit: number }): Promise<AuditReadingPage> => {
    let name = reading;
    let whole = name === undefined ? undefined : kept.get(name);
    if (!name || !whole) {
      name = randomUUID();
      whole = await read();
      kept.set(name, whole);
      for (const oldest of kept.keys()) if (kept.size > KEPT_READINGS) kept.delete(oldest);
    }
    const { entries, ...rest } = whole;
    if (from + limit >= entries.length) kept.delete(name);
    return { ...rest, reading: name, entries: entries.slice(from, from + limit), total: entries.length };
  };
}
