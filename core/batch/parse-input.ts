import { invalidInput } from '../../shared/errors';
import { referenceProblem, type ReferenceProblem } from '../../shared/reference';
import { uidProblem, type UidProblem } from '../../shared/uid';
import { AUDIT_CSV_COLUMNS, isAuditVerdictRow, restoreCell } from '../audit-export';
import { referenceProblemMessage, uidProblemMessage } from '../input-problems';
import { csvRows, type CsvRow } from './csv-rows';
import { delimitedLineCounter, guessFormat, inputFormat, listLooksDelimited, namesUidColumn, uidColumnIndex, type BatchInputKind } from './input-format';
import { BATCH_RESULTS_CSV_COLUMNS } from './results';
import { numberedLines, peekText, textChunks, type BatchInputSource } from './text-chunks';
import type { MessageText } from '../../shared/message-text';
import { SEPARATOR_CHARACTERS, type BatchSeparator } from '../../shared/batch';
import { msg } from '../../shared/messages';

export type { BatchInputSource } from './text-chunks';
export type { BatchInputKind } from './input-format';

export interface BatchInputOptions {
  kind: 'auto' | BatchInputKind;
  /** The operator's choice: comma or semicolon (CSV), tab (TSV). Default: guessed from the first line (input-format.ts). */
  separator?: BatchSeparator;
  /** A header name, or a 0-based index. Default: the header cell named like a uid column, else the first column. */
  uidColumn?: string | number;
  referenceColumn?: string | number;
  /** Default: true when a column is picked by name or the first row names a uid column. */
  hasHeader?: boolean;
}

export interface BatchInputItem {
  /** 1-based line of the source where the uid's row starts. */
  line: number;
  uid: string;
  reference?: string;
}

/** What makes a line unusable: its uid, or its reference (the gate's rules for a single act). */
export type BatchLineProblem = UidProblem | ReferenceProblem;

export interface InvalidLine {
  line: number;
  /** The single-act rule it breaks (shared/uid.ts, shared/reference.ts), for a window to word in its language. */
  problem: BatchLineProblem;
  /** English words from core/input-problems.ts, as for a single act. */
  reason: string;
  /** The start of the offending value (the uid, or the reference), printable (control characters and broken halves as \\u escapes). */
  excerpt: string;
}

export interface BatchInputSummary {
  kind: BatchInputKind;
  /** Valid, distinct uids handed to onItem. */
  items: number;
  /** The first MAX_LISTED_INVALID invalid lines. */
  invalid: InvalidLine[];
  /** Every invalid line, listed or not. */
  invalidCount: number;
  /** Exact-uid repeats dropped (the first occurrence is kept). */
  duplicates: number;
  /** The header row, when there is one (for a list: a first line like "uid" or "User ID", skipped). */
  columns?: string[];
  /** The column the uids were read from (CSV and TSV): its 0-based index, and its name when there is a header. */
  uidColumn?: { index: number; name?: string };
  /** How many cells the first row has (CSV and TSV): without a header, the operator picks a column by its number. */
  columnCount?: number;
  /** What separated the columns (CSV and TSV). */
  separator?: BatchSeparator;
  /** Valid uids that begin or end with white space (kept exactly, as everywhere: said so the operator can look). */
  edgeSpaces: { count: number; lines: number[] };
  /** A CSV export of Privacy Desk's own (by its header row): its cells were read back as they were before export. */
  fromExport?: OwnExport;
}

/** Privacy Desk's own CSV exports, which a batch reads back exactly (core/audit-export.ts restoreCell). */
export type OwnExport = 'audit' | 'batch-results';

/** How many lines with edge spaces a summary names. */
export const MAX_LISTED_EDGE_SPACES = 20;

export const MAX_LISTED_INVALID = 1000;
/** How much text 'auto' looks at to guess the format. */
const SAMPLE_SIZE = 64 * 1024;
const EXCERPT_LENGTH = 80;

/**
 * Reads a batch's uids from pasted text or a file (streamed: the text is never held whole),
 * validates each line with the single-act rules (its uid, and its reference: a line the gate would
 * refuse is an invalid line here) and drops exact duplicates. Each valid uid goes to
 * `onItem` (awaited, so a slow consumer slows the reading). Duplicates are found with a Set of
 * the uids seen: about 100 bytes a uid, a few MB for 100,000 — acceptable, and the only state
 * that grows. Throws INVALID_INPUT when a picked column does not exist, or as soon as a line
 * (a CSV row) is longer than MAX_LINE_LENGTH.
 */
export async function parseBatchInput(
  source: BatchInputSource,
  options: BatchInputOptions,
  onItem: (item: BatchInputItem) => void | Promise<void>,
): Promise<BatchInputSummary> {
  const { sample, all } = await peekText(textChunks(source)[Symbol.asyncIterator](), SAMPLE_SIZE);
  const format = inputFormat(sample, { kind: options.kind, ...(options.separator ? { separator: options.separator } : {}), pickedColumn: options.uidColumn ?? options.referenceColumn });
  const { kind } = format;
  const summary: BatchInputSummary = { kind, items: 0, invalid: [], invalidCount: 0, duplicates: 0, edgeSpaces: { count: 0, lines: [] } };
  if (format.kind !== 'list') summary.separator = format.separator;
  const seen = new Set<string>();

  const invalid = (line: number, problem: BatchLineProblem, reason: string, value: string): void => {
    summary.invalidCount += 1;
    if (summary.invalid.length < MAX_LISTED_INVALID) summary.invalid.push({ line, problem, reason, excerpt: excerptOf(value) });
  };
  // Every field is checked here with the gate's own rules, so that a run never meets a line it must refuse.
  const accept = async (line: number, uid: string, reference: string | undefined): Promise<void> => {
    const problem = uidProblem(uid);
    const referenceIssue = problem ? undefined : referenceProblem(reference);
    if (problem) {
      invalid(line, problem, uidProblemMessage(problem), uid);
    } else if (referenceIssue) {
      invalid(line, referenceIssue, referenceProblemMessage(referenceIssue), reference ?? '');
    } else if (seen.has(uid)) {
      summary.duplicates += 1;
    } else {
      seen.add(uid);
      summary.items += 1;
      if (uid !== uid.trim()) {
        summary.edgeSpaces.count += 1;
        if (summary.edgeSpaces.lines.length < MAX_LISTED_EDGE_SPACES) summary.edgeSpaces.lines.push(line);
      }
      await onItem(reference ? { line, uid, reference } : { line, uid });
    }
  };

  if (format.kind === 'list') {
    let first = true;
    const delimited = delimitedLineCounter();
    for await (const { line, text } of numberedLines(all)) {
      if (text.length === 0) continue;
      if (first) {
        first = false;
        // A spreadsheet's header ("uid", "User ID", "uid;référence"…) is not a uid to erase.
        const isHeader = options.hasHeader ?? (namesUidColumn(text) || text === options.uidColumn);
        checkListColumns(options, isHeader ? text : undefined);
        if (isHeader) {
          summary.columns = [text];
          continue;
        }
      }
      delimited.add(line, text);
      await accept(line, text, undefined);
    }
    if (first) checkListColumns(options, undefined);
    // Guessed a list, yet most lines look like rows of columns: each would be sent whole and end "not found".
    const rows = options.kind === 'auto' ? delimited.mostLines() : undefined;
    if (rows) throw listLooksDelimited(rows, excerptOf(rows.text));
    return summary;
  }

  let picked: { uid: number; reference?: number } | undefined;
  let restore = (cell: string | undefined) => cell;
  for await (const row of csvRows(all, SEPARATOR_CHARACTERS[format.separator])) {
    if (isEmptyRow(row)) continue;
    if (!picked) {
      const fromExport = format.separator === 'comma' && options.hasHeader !== false ? ownExportOf(row.cells) : undefined;
      const hasHeader = fromExport !== undefined || (options.hasHeader ?? (typeof options.uidColumn === 'string' || typeof options.referenceColumn === 'string' || namesUidColumnIn(row.cells)));
      if (hasHeader) summary.columns = row.cells;
      summary.columnCount = row.cells.length;
      picked = pickColumns(row.cells, hasHeader, options);
      summary.uidColumn = hasHeader ? { index: picked.uid, name: row.cells[picked.uid] ?? '' } : { index: picked.uid };
      if (fromExport) {
        // Our own export: the apostrophe it put before formula-like cells (and before cells starting with one) comes off.
        summary.fromExport = fromExport;
        restore = (cell) => (cell === undefined ? cell : restoreCell(cell));
      }
      if (hasHeader) continue;
    }
    // Our audit export ends with a row stating the chain's verdict: not an item.
    if (summary.fromExport === 'audit' && isAuditVerdictRow(row.cells)) continue;
    const reference = picked.reference === undefined ? undefined : restore(row.cells[picked.reference]);
    await accept(row.line, restore(row.cells[picked.uid]) ?? '', reference);
  }
  return summary;
}

/** The CSV exports Privacy Desk writes, by their header row (columns are only ever added at the end). */
const OWN_EXPORTS: ReadonlyArray<{ kind: OwnExport; columns: readonly string[]; minimum: number }> = [
  // Exports made before pasted_uid end at 'at'.
  { kind: 'batch-results', columns: BATCH_RESULTS_CSV_COLUMNS, minimum: BATCH_RESULTS_CSV_COLUMNS.indexOf('at') + 1 },
  { kind: 'audit', columns: AUDIT_CSV_COLUMNS, minimum: AUDIT_CSV_COLUMNS.indexOf('hash') + 1 },
];

function ownExportOf(header: readonly string[]): OwnExport | undefined {
  return OWN_EXPORTS.find(({ columns, minimum }) => header.length >= minimum && header.every((cell, index) => index >= columns.length || cell === columns[index]))?.kind;
}

/** The kind 'auto' would read (input-format.ts guessFormat says how). */
export function guessKind(sample: string, pickedColumn?: string | number): BatchInputKind {
  return guessFormat(sample, pickedColumn).kind;
}

/** A list has one column: a column picked by another name or number would be silently ignored, so it is refused. */
function checkListColumns(options: BatchInputOptions, header: string | undefined): void {
  const fits = (wanted: string | number | undefined) => wanted === undefined || wanted === 0 || (header !== undefined && wanted === header);
  for (const [role, wanted] of [['uid', options.uidColumn], ['reference', options.referenceColumn]] as const) {
    if (role === 'reference' ? wanted === undefined : fits(wanted)) continue;
    throw invalidInput(msg('batch.listHasNoColumns', { column: String(wanted), role: roleText(role) }));
  }
}

function pickColumns(firstRow: string[], hasHeader: boolean, options: BatchInputOptions): { uid: number; reference?: number } {
  const columns = hasHeader ? firstRow : undefined;
  const uidDefault = columns ? Math.max(uidColumnIndex(columns), 0) : 0;
  const uid = options.uidColumn === undefined ? uidDefault : columnIndex(options.uidColumn, firstRow, columns, 'uid');
  if (options.referenceColumn === undefined) return { uid };
  return { uid, reference: columnIndex(options.referenceColumn, firstRow, columns, 'reference') };
}

function columnIndex(wanted: string | number, firstRow: string[], columns: string[] | undefined, role: 'uid' | 'reference'): number {
  if (typeof wanted === 'number') {
    if (Number.isInteger(wanted) && wanted >= 0 && wanted < firstRow.length) return wanted;
    const found = { column: wanted, role: roleText(role), columns: firstRow.length };
    throw invalidInput(columns ? msg('batch.noColumnNumberNamed', { ...found, names: columnList(columns) }) : msg('batch.noColumnNumber', found));
  }
  const index = columns ? columns.indexOf(wanted) : -1;
  if (index !== -1) return index;
  throw invalidInput(
    columns ? msg('batch.noColumnNamed', { column: wanted, role: roleText(role), names: columnList(columns) }) : msg('batch.noHeaderRow', { column: wanted, role: roleText(role) }),
  );
}

function roleText(role: 'uid' | 'reference'): MessageText {
  return role === 'uid' ? msg('batch.role.uid') : msg('batch.role.reference');
}

/** The columns found, as data: each name quoted as it is in the file (a short, printable start of it). */
function columnList(columns: string[]): string {
  return columns.map((name) => `"${excerptOf(name)}"`).join(', ');
}

/** A header row: a cell names the uid column, or its one cell does once split otherwise ("uid;x" read with the wrong separator). */
function namesUidColumnIn(cells: string[]): boolean {
  return uidColumnIndex(cells) !== -1 || (cells.length === 1 && namesUidColumn(cells[0] ?? ''));
}

function isEmptyRow(row: CsvRow): boolean {
  return row.cells.length === 1 && row.cells[0] === '';
}

/** A short, printable start of a value for a report (never the whole of a pasted blob); control characters and broken halves as \\u escapes. */
function excerptOf(value: string): string {
  // eslint-disable-next-line no-control-regex -- escaping control characters is the point
  const printable = value.replace(/[\u0000-\u001f\u007f-\u009f]|\p{Cs}/gu, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const codePoints = Array.from(printable);
  return codePoints.length > EXCERPT_LENGTH ? `${codePoints.slice(0, EXCERPT_LENGTH).join('')}…` : printable;
}
