import type { AuditAnchorRecord, AuditAnchorStore } from '../audit-anchor';

/** The audit anchor in memory, keeping every record it was given (the one stored just before a write is a crash's state). */
export function memoryAnchor() {
  let current: AuditAnchorRecord | null = null;
  const history: AuditAnchorRecord[] = [];
  const store: AuditAnchorStore = {
    where: async () => ({ kind: 'keychain' }),
    read: async () => (current ? structuredClone(current) : null),
    write: async (record) => {
      current = structuredClone(record);
      history.push(current);
    },
  };
  return { store, history, set: (record: AuditAnchorRecord) => (current = structuredClone(record)), get: () => current };
}
