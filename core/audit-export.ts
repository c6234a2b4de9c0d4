import { stringify } from 'csv-stringify/sync';
import { lineVouching, matchesAuditFilter, type AuditEntryAt, type BatchAuditSummary, type AuditExport, type AuditExportFormat, type AuditFilter, type AuditReading, type ChainVerdict } from '../shared/audit';
import { describeVerdict, entryHash } from './audit-chain';

/**
 * CSV columns, in this fixed order (documented for DPOs; add new ones only at the end):
 * line, seq, at, actId, operation, stage (attempted / not-sent / refused / done / unknown /
 * verification), uid, reference, profileId, profileName, baseUrl, operator, appVersion, via, jobId,
 * test (the negative case's name when the act was a deliberate test), status, requestId, errorCode,
 * verification, prevHash, hash (SHA-256 of the entry's canonical form, core/audit-chain.ts),
 * batchSummary (a batch job's 'summary' entry: its counts in words, batchSummaryWords; empty on other rows),
 * verified (whether the chain vouches for the row: "yes", or "no: " and why — outside the chain, the line where it
 * breaks, after that break; vouchingWords), pastedUid (a batch item sent trimmed by the operator's choice: the uid as
 * pasted), desktop and dbRole (team mode: the computer the entry was written from and the database role it wrote
 * with, beside the OS user in operator). After the rows, one last row states the chain's verdict at export time (AUDIT_VERDICT_OPERATION): its
 * operation is "chain-verdict", its stage "verified" or "not verified", its hash the head hash, its verified cell the
 * verdict in words, its at the export's time; every other cell is empty.
 */
export const AUDIT_CSV_COLUMNS = ['line', 'seq', 'at', 'actId', 'operation', 'stage', 'uid', 'reference', 'profileId', 'profileName', 'baseUrl', 'operator', 'appVersion', 'via', 'jobId', 'test', 'status', 'requestId', 'errorCode', 'verification', 'prevHash', 'hash', 'batchSummary', 'verified', 'pastedUid', 'desktop', 'dbRole'] as const;

/** The operation cell of the CSV export's last row, which states the chain's verdict (never an act's operation). */
export const AUDIT_VERDICT_OPERATION = 'chain-verdict';

/** Whether a row of our own audit CSV export is its verdict row (a batch reading the export back leaves it out). */
export function isAuditVerdictRow(cells: readonly string[]): boolean {
  return cells[AUDIT_CSV_COLUMNS.indexOf('line')] === '' && cells[AUDIT_CSV_COLUMNS.indexOf('operation')] === AUDIT_VERDICT_OPERATION;
}

export const AUDIT_EXPORT_FORMAT = 'privacy-desk-audit-export/1';

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return, which some strip
 * first) as a formula: such cells get a leading apostrophe, which shows as text and runs nothing.
 * A cell that starts with an apostrophe gets one too, so the mark can always be taken off again:
 * `=1+1` is written `'=1+1` and `'=1+1` is written `''=1+1`, never the same (restoreCell undoes it).
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r']/.test(value) ? `'${value}` : value;
}

/** A cell of our own CSV export as it was before neutraliseCell: one leading apostrophe removed. */
export function restoreCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/** Whether the chain vouches for a line, in the CSV's words. */
export function vouchingWords(verdict: ChainVerdict, line: number): string {
  const breakLine = verdict.ok ? 0 : (verdict.unvouched?.from ?? verdict.line);
  switch (lineVouching(verdict, line)) {
    case 'vouched':
      return 'yes';
    case 'outside-chain':
      return 'no: outside the chain';
    case 'at-break':
      return `no: the chain breaks at this line (${line})`;
    case 'after-break':
      return `no: after the chain’s break at line ${breakLine}`;
  }
}

function csvRow(entry: AuditEntryAt, verdict: ChainVerdict): string[] {
  const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], unknown> = {
    line: entry.line,
    seq: entry.seq,
    at: entry.at,
    actId: entry.actId,
    operation: entry.action,
    stage: entry.outcome,
    uid: entry.uid,
    reference: entry.reference,
    profileId: entry.profileId,
    profileName: entry.profileName,
    baseUrl: entry.baseUrl,
    operator: entry.operator,
    appVersion: entry.appVersion,
    via: entry.via,
    jobId: entry.jobId,
    test: entry.test?.case,
    status: entry.status,
    requestId: entry.requestId,
    errorCode: entry.errorCode,
    verification: entry.verification,
    prevHash: entry.prevHash,
    hash: hashOf(entry),
    batchSummary: entry.batch ? batchSummaryWords(entry.batch) : undefined,
    verified: vouchingWords(verdict, entry.line),
    pastedUid: entry.pastedUid,
    desktop: entry.desktop,
    dbRole: entry.dbRole,
  };
  return AUDIT_CSV_COLUMNS.map((column) => neutraliseCell(cells[column] === undefined ? '' : String(cells[column])));
}

/** The export's last row: the chain's verdict when the export was made, and the head hash. */
function verdictRow(verdict: ChainVerdict, exportedAt: string): string[] {
  const cells: Partial<Record<(typeof AUDIT_CSV_COLUMNS)[number], string>> = {
    at: exportedAt,
    operation: AUDIT_VERDICT_OPERATION,
    stage: verdict.ok ? 'verified' : 'not verified',
    hash: verdict.headHash ?? '',
    verified: describeVerdict(verdict),
  };
  return AUDIT_CSV_COLUMNS.map((column) => neutraliseCell(cells[column] ?? ''));
}

/**
 * What a batch run came to, in words, for a summary entry (the list, the CSV export):
 * "delete 250: 242 done, 5 not found, 3 failed, 0 unfinished (finished)". Done counts the items
 * done before an interruption too (a 404 on a retry), said in brackets when there are any.
 */
export function batchSummaryWords(summary: BatchAuditSummary): string {
  const done = summary.done + summary.doneBeforeInterruption;
  const before = summary.doneBeforeInterruption > 0 ? ` (${summary.doneBeforeInterruption} of them before an interruption)` : '';
  return `${summary.operation} ${summary.total}: ${done} done${before}, ${summary.notFound} not found, ${summary.failed} failed, ${summary.unfinished} unfinished (${summary.ended})`;
}

/** A chained entry's hash (its stored form is the read entry without its line number); none for lines written before the chain. */
function hashOf({ line: _line, ...stored }: AuditEntryAt): string | undefined {
  return stored.seq === undefined ? undefined : entryHash(stored);
}

/** The export of what `filter` keeps, with the head hash of the whole chain. */
export function buildAuditExport(reading: AuditReading, options: { format: AuditExportFormat; filter?: AuditFilter; exportedAt: string }): AuditExport {
  const filter = options.filter ?? {};
  const entries = reading.entries.filter((entry) => matchesAuditFilter(entry, filter));
  const headHash = reading.verdict.headHash;
  const stamp = options.exportedAt.slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  if (options.format === 'csv') {
    const content = stringify([[...AUDIT_CSV_COLUMNS], ...entries.map((entry) => csvRow(entry, reading.verdict)), verdictRow(reading.verdict, options.exportedAt)], { record_delimiter: 'windows' });
    return { fileName: `privacy-desk-audit-${stamp}.csv`, mimeType: 'text/csv;charset=utf-8', content, headHash, count: entries.length };
  }
  const chainId = reading.verdict.ok ? reading.verdict.chainId : (reading.entries.find((e) => e.chainId)?.chainId ?? null);
  const document = {
    format: AUDIT_EXPORT_FORMAT,
    chainId,
    headHash,
    exportedAt: options.exportedAt,
    filter,
    verdict: reading.verdict,
    entries: entries.map((entry) => ({ ...entry, hash: hashOf(entry) ?? null, vouching: lineVouching(reading.verdict, entry.line) })),
  };
  return { fileName: `privacy-desk-audit-${stamp}.json`, mimeType: 'application/json', content: `${JSON.stringify(document, null, 2)}\n`, headHash, count: entries.length };
}
