import type { AuditEntryAt } from '../../shared/audit';
import type { AuditQuery } from '../../shared/audit-query';

const PAGE = 1_000;

/**
 * The team trail's 'request' entries, oldest first, read a page at a time by the database's index on the operation
 * (core/team/pg-audit-query.ts), never the whole trail: what check() compares the register with. A trail of a
 * million acts and a register of a few thousand events costs a few thousand rows.
 */
export async function requestEntriesOf(query: AuditQuery, pageSize = PAGE): Promise<AuditEntryAt[]> {
  const pages: AuditEntryAt[][] = [];
  let cursor: number | undefined;
  for (;;) {
    const page = await query.queryPage({ filter: { operation: 'request' }, cursor, limit: pageSize });
    pages.push(page.entries.filter((entry) => entry.action === 'request'));
    if (page.nextCursor === null) break;
    cursor = page.nextCursor;
  }
  // Pages come newest first, each oldest first inside.
  return pages.reverse().flat();
}
