import { defaultOutcome, ERROR_CODES, type ErrorCode } from '../shared/errors';
import type { AuditEntry } from '../shared/audit';

/**
 * Entries written before the outcome model said 'succeeded' or 'failed'. They
 * are read in today's words and never rewritten (the file is evidence):
 * 'succeeded' was only ever written for a readable 2xx (done); 'failed' takes
 * the usual outcome of its error code, unknown when the code is missing.
 */
export function upgradeLegacyEntry(entry: AuditEntry): AuditEntry {
  const outcome = entry.outcome as string;
  if (outcome === 'succeeded') return { ...entry, outcome: 'done' };
  if (outcome === 'failed') {
    const code = entry.errorCode;
    const known = code !== undefined && (ERROR_CODES as readonly string[]).includes(code);
    return { ...entry, outcome: known ? defaultOutcome(code as ErrorCode) : 'unknown' };
  }
  return entry;
}
