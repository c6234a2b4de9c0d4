import type { AuditReading } from '../shared/audit';
import { auditPageOf, type AuditQuery } from '../shared/audit-query';

/**
 * The local trail (audit.jsonl) answering pages as the team store does (core/team/pg-audit-query.ts): read whole,
 * as the console has always read it, then filtered by the one rule. Its count is exact: the entries are in memory.
 */
export function createFileAuditQuery(where: string, read: () => Promise<AuditReading>): AuditQuery {
  return {
    kind: 'file',
    where,
    async queryPage(input) {
      const reading = await read();
      return {
        store: 'file',
        where,
        ...auditPageOf(reading.entries, input),
        head: { entries: reading.verdict.entries, hash: reading.verdict.headHash },
        corrupt: input.cursor === undefined ? reading.corrupt : [],
      };
    },
  };
}
