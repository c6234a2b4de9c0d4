/**
 * A job's results as a file, from its rows as any job store streams them (results.ts for the data folder, the
 * team database's store): CSV with a header row and CRLF line ends, every cell neutralised against spreadsheet
 * formulas; or JSON { format, batchId, action, profileName, baseUrl, reference?, source, createdAt, exportedAt,
 * total, counts, rows } with one row per line. Rows are taken one group at a time, never all at once.
 */
import { stringify } from 'csv-stringify/sync';
import type { BatchCounts, BatchResultOutcome, BatchResultRow, BatchResultsFile } from '../../shared/batch';
import { neutraliseCell } from '../audit-export';
import type { StoredPlan } from './job-files';

export type BatchResultsFormat = 'csv' | 'json';

/**
 * CSV columns, in this fixed order (add new ones only at the end: readers of older files find the first ones
 * where they were). `pasted_uid`: the uid as pasted, when the operator chose to send its trimmed form (`uid`).
 */
export const BATCH_RESULTS_CSV_COLUMNS = ['line', 'uid', 'reference', 'outcome', 'status', 'request_id', 'reason', 'at', 'pasted_uid'] as const;
export const BATCH_RESULTS_FORMAT = 'privacy-desk-batch-results/1';

const COUNT_KEYS: Record<BatchResultOutcome, keyof BatchCounts> = {
  done: 'done',
  'done-before-interruption': 'doneBeforeInterruption',
  'not-found': 'notFound',
  failed: 'failed',
  unfinished: 'unfinished',
};

function csvCells(row: BatchResultRow): string[] {
  const cells = [row.line, row.uid, row.reference, row.outcome, row.status, row.requestId, row.reason, row.at, row.pastedUid];
  return cells.map((cell) => neutraliseCell(cell === undefined ? '' : String(cell)));
}

/** Rows stringified this many at a time: few calls, and never every row's cells at once. */
const CSV_GROUP = 1000;

/** The CSV a group of rows at a time: the header row, then every row; `tally.rows` counts them as they go. */
export async function* resultsCsvPieces(rows: AsyncIterable<BatchResultRow>, tally: { rows: number }): AsyncGenerator<string> {
  let group: string[][] = [[...BATCH_RESULTS_CSV_COLUMNS]];
  for await (const row of rows) {
    tally.rows++;
    group.push(csvCells(row));
    if (group.length >= CSV_GROUP) {
      yield stringify(group, { record_delimiter: 'windows' });
      group = [];
    }
  }
  if (group.length > 0) yield stringify(group, { record_delimiter: 'windows' });
}

/** The results of the job `plan` describes as a file, from its rows. */
export async function resultsFileOf(plan: StoredPlan, rows: AsyncIterable<BatchResultRow>, format: BatchResultsFormat, options: { now?: () => Date } = {}): Promise<BatchResultsFile> {
  const batchId = plan.jobId;
  const parts: string[] = [];
  if (format === 'csv') {
    const tally = { rows: 0 };
    for await (const piece of resultsCsvPieces(rows, tally)) parts.push(piece);
    return { fileName: `privacy-desk-batch-${batchId}.csv`, mimeType: 'text/csv;charset=utf-8', content: parts.join(''), rows: tally.rows };
  }
  const counts: BatchCounts = { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 0 };
  let count = 0;
  for await (const row of rows) {
    parts.push(`${count === 0 ? '' : ',\n'}    ${JSON.stringify(row)}`);
    count++;
    counts[COUNT_KEYS[row.outcome]]++;
  }
  const head = JSON.stringify(jsonHead(plan, (options.now ?? (() => new Date()))(), counts), null, 2);
  // The head's closing brace is replaced by the rows array, one row per line.
  const content = `${head.slice(0, -2)},\n  "rows": [\n${parts.join('')}${count === 0 ? '' : '\n'}  ]\n}\n`;
  return { fileName: `privacy-desk-batch-${batchId}.json`, mimeType: 'application/json', content, rows: count };
}

function jsonHead(plan: StoredPlan, exportedAt: Date, counts: BatchCounts) {
  return {
    format: BATCH_RESULTS_FORMAT,
    batchId: plan.jobId,
    action: plan.action,
    profileName: plan.profileName,
    baseUrl: plan.baseUrl,
    ...(plan.reference === undefined ? {} : { reference: plan.reference }),
    source: plan.source,
    createdAt: plan.createdAt,
    exportedAt: exportedAt.toISOString(),
    total: plan.total,
    counts,
  };
}
