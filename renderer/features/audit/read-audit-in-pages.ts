import type { AuditEntryAt, AuditReading } from '../../../shared/audit';
import type { BridgeClient } from '../../../shared/contract';

/** Entries an answer carries: a page the window parses in a few milliseconds, where 50,000 at once took over 100. */
export const AUDIT_PAGE_ENTRIES = 5_000;

/** The whole reading, asked for page by page; each page's answer is parsed in a task of its own. */
export async function readAuditInPages(bridge: Pick<BridgeClient, 'audit.readPage'>): Promise<AuditReading> {
  const entries: AuditEntryAt[] = [];
  let page = await bridge['audit.readPage']({ from: 0, limit: AUDIT_PAGE_ENTRIES });
  for (;;) {
    for (const entry of page.entries) entries.push(entry);
    if (entries.length >= page.total || page.entries.length === 0) break;
    const next = await bridge['audit.readPage']({ reading: page.reading, from: entries.length, limit: AUDIT_PAGE_ENTRIES });
    // The host no longer held that reading: start over from a new reading's first page.
    if (next.reading !== page.reading) {
      entries.length = 0;
      page = await bridge['audit.readPage']({ from: 0, limit: AUDIT_PAGE_ENTRIES });
      continue;
    }
    page = next;
  }
  const { reading: _reading, total: _total, entries: _entries, ...rest } = page;
  return { ...rest, entries };
}
