import { useEffect, useState } from 'react';
import type { AuditFilter, AuditReading } from '../../../shared/audit';
import { filterAuditRowsInSlices } from './audit-rows-in-slices';
import type { AuditRow } from './group-acts';

/**
 * The rows of `reading` that `filter` keeps, worked out in slices that yield to the page; undefined until the
 * first are ready. While a newer reading or filter is being worked out, the rows before it stay on screen.
 */
export function useAuditRows(reading: AuditReading | undefined, filter: AuditFilter): AuditRow[] | undefined {
  const [rows, setRows] = useState<AuditRow[]>();
  useEffect(() => {
    if (!reading) return undefined;
    const stale = new AbortController();
    filterAuditRowsInSlices(reading.entries, reading.corrupt, filter, stale.signal).then(
      (next) => {
        if (next) setRows(next);
      },
      // A reading the view cannot handle fails in the view's render, where the error boundary says so.
      (error: unknown) =>
        setRows(() => {
          throw error;
        }),
    );
    return () => stale.abort();
  }, [reading, filter]);
  return rows;
}
