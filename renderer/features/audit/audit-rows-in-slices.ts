import { matchesAuditFilter, type AuditFilter, type CorruptAuditLine } from '../../../shared/audit';
import { createAuditRowGrouper, sortAuditRows, type AuditRow, type LinedAuditEntry } from './group-acts';

/** Work between two yields: well under the 50 ms that makes a long task, even on a busy machine. */
export const SLICE_MS = 8;

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Runs `work` on each item, giving the page back whenever a slice has used its time; false once `signal` aborts. */
async function eachInSlices<T>(items: Iterable<T>, work: (item: T) => void, signal: AbortSignal): Promise<boolean> {
  let sliceStart = performance.now();
  for (const item of items) {
    work(item);
    if (performance.now() - sliceStart < SLICE_MS) continue;
    await nextTask();
    if (signal.aborted) return false;
    sliceStart = performance.now();
  }
  return !signal.aborted;
}

/**
 * filterAuditRows (group-acts.ts) in slices that yield to the page: the same rows, but 50,000 entries are
 * filtered and grouped without one long task. Undefined when `signal` aborts first (a newer filter or reading).
 */
export async function filterAuditRowsInSlices(entries: readonly LinedAuditEntry[], corrupt: readonly CorruptAuditLine[], filter: AuditFilter, signal: AbortSignal): Promise<AuditRow[] | undefined> {
  let kept: readonly LinedAuditEntry[] = entries;
  if (Object.keys(filter).length > 0) {
    // An act is kept whole when any of its entries matches, as filterAuditRows keeps it.
    const acts = new Set<string>();
    const lines = new Set<number>();
    const matched = await eachInSlices(entries, (entry) => {
      if (!matchesAuditFilter(entry, filter)) return;
      if (entry.actId) acts.add(entry.actId);
      else lines.add(entry.line);
    }, signal);
    if (!matched) return undefined;
    kept = entries.filter((entry) => (entry.actId ? acts.has(entry.actId) : lines.has(entry.line)));
  }
  const grouper = createAuditRowGrouper();
  if (!(await eachInSlices(kept, grouper.add, signal))) return undefined;
  const rows: AuditRow[] = [];
  if (!(await eachInSlices(grouper.rows(corrupt), (row) => rows.push(row), signal))) return undefined;
  return sortAuditRows(rows);
}
