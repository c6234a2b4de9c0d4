import { stringify } from 'csv-stringify/sync';
import { uidMatchesFilter, type NearMatch, type ReconcileExportFile, type ReconcileRows, type ReconcileSetName } from '../../shared/reconcile';
import { neutraliseCell } from '../audit-export';
import type { Reconciliation } from './reconcile';

export const RECONCILE_FORMAT = 'privacy-desk-reconcile/1';
/** How uids were compared, in the export's and the CLI's own words. */
export const COMPARISON_RULE =
  'exact, code point for code point after Unicode NFC (no trimming, no case folding); near matches (equal once spaces, invisible characters, NFKC and case are set aside) are listed apart and are neither orphans nor missing';

export const RECONCILE_CSV_COLUMNS = ['set', 'service_uid', 'application_uid', 'differences'] as const;

/** The whole reconciliation as JSON: the sets as uid arrays with their counts (the CLI's --json, the window's export). */
export function reconcileJson(reconciliation: Reconciliation) {
  const { summary, sets } = reconciliation;
  return {
    format: RECONCILE_FORMAT,
    reconcileId: summary.reconcileId,
    reference: summary.reference,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    comparison: COMPARISON_RULE,
    pagesWalked: summary.pages,
    counts: summary.counts,
    input: summary.input,
    orphans: sets.orphans,
    missing: sets.missing,
    inBoth: sets.inBoth,
    nearMatches: sets.nearMatches,
  };
}

/** CSV (one row a uid, a near match one row a pair; formula cells neutralised as in every export) or JSON, for the window to save. */
export function exportReconciliation(reconciliation: Reconciliation, format: 'csv' | 'json'): ReconcileExportFile {
  const base = reconciliation.summary.reference;
  if (format === 'json') return { fileName: `${base}.json`, mimeType: 'application/json', content: `${JSON.stringify(reconcileJson(reconciliation), null, 2)}\n` };
  const { sets } = reconciliation;
  const rows: string[][] = [];
  for (const uid of sets.orphans) rows.push(['orphan', uid, '', '']);
  for (const uid of sets.missing) rows.push(['missing', '', uid, '']);
  for (const uid of sets.inBoth) rows.push(['in-both', uid, '', '']);
  for (const near of sets.nearMatches) rows.push(['near-match', near.service, near.application, near.differences.join(' ')]);
  const content = stringify(rows.map((row) => row.map(neutraliseCell)), { header: true, columns: [...RECONCILE_CSV_COLUMNS], record_delimiter: '\r\n' });
  return { fileName: `${base}.csv`, mimeType: 'text/csv', content };
}

/** One page of a set, the filter applied (a near match passes when either of its uids does). */
export function reconcileRows(reconciliation: Reconciliation, set: ReconcileSetName, filter: string, offset: number, limit: number): ReconcileRows {
  if (set === 'nearMatches') {
    const all = reconciliation.sets.nearMatches;
    const kept = filter === '' ? all : all.filter((near: NearMatch) => uidMatchesFilter(near.service, filter) || uidMatchesFilter(near.application, filter));
    return { set, total: all.length, matching: kept.length, offset, rows: kept.slice(offset, offset + limit) };
  }
  const all = reconciliation.sets[set];
  const kept = filter === '' ? all : all.filter((uid) => uidMatchesFilter(uid, filter));
  return { set, total: all.length, matching: kept.length, offset, rows: kept.slice(offset, offset + limit) };
}

/** The orphans a batch is given: those the filter keeps, or only the ones picked (each checked to be an orphan). */
export function orphansToSend(reconciliation: Reconciliation, filter: string, picked?: readonly string[]): { uids: string[]; notOrphan?: string } {
  const orphans = reconciliation.sets.orphans;
  if (picked === undefined) return { uids: filter === '' ? orphans : orphans.filter((uid) => uidMatchesFilter(uid, filter)) };
  const known = new Set(orphans);
  const notOrphan = picked.find((uid) => !known.has(uid));
  return notOrphan === undefined ? { uids: [...new Set(picked)] } : { uids: [], notOrphan };
}
