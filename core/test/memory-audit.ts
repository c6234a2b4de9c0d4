import { msg } from '../../shared/messages';
import { AuditWriteError } from '../audit-write-error';
import type { AuditEntry } from '../../shared/audit';
import type { AuditLog } from '../audit-log';

/** An audit log in memory for gate tests; `failOn` makes chosen appends fail as a full disk would. */
export function memoryAudit(failOn: (entry: AuditEntry) => boolean = () => false): AuditLog & { entries: AuditEntry[] } {
  const entries: AuditEntry[] = [];
  return {
    path: '/memory',
    entries,
    async append(entry: AuditEntry) {
      if (failOn(entry)) throw diskFull();
      entries.push(entry);
    },
    async appendMany(batch: readonly AuditEntry[]) {
      if (batch.some(failOn)) throw diskFull();
      entries.push(...batch);
    },
    async list() {
      return [...entries].reverse();
    },
  } as unknown as AuditLog & { entries: AuditEntry[] };
}

/** What the file-backed log throws on a full disk (core/audit-log.ts). */
function diskFull(): AuditWriteError {
  return new AuditWriteError('/memory', msg('audit.why.diskFull'), msg('audit.fix.space'), 'ENOSPC', Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
}
