import { PrivacyDeskError } from '../../shared/errors';
import type { AuditEntry } from '../../shared/audit';
import type { AuditLog } from '../audit-log';

/** An audit log in memory for gate tests; `failOn` makes chosen appends fail as a full disk would. */
export function memoryAudit(failOn: (entry: AuditEntry) => boolean = () => false): AuditLog & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    path: '/memory',
    entries,
    async append(entry: AuditEntry) {
      if (failOn(entry)) throw new PrivacyDeskError({ code: 'INTERNAL', message: 'The audit trail /memory could not be written (ENOSPC).' });
      entries.push(entry);
    },
    async appendMany(batch: readonly AuditEntry[]) {
      if (batch.some(failOn)) throw new PrivacyDeskError({ code: 'INTERNAL', message: 'The audit trail /memory could not be written (ENOSPC).' });
      entries.push(...batch);
    },
    async list() {
      return [...entries].reverse();
    },
  } as unknown as AuditLog & { entries: AuditEntry[] };
}
