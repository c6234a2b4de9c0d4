import { invalidInput, PrivacyDeskError } from '../../shared/errors';
import { SEPARATOR_CHARACTERS, type BatchSeparator } from '../../shared/batch';
import { msg } from '../../shared/messages';
import type { MessageText } from '../../shared/message-text';
import { newRequestSchema, requestChangeSchema, type NewRequest, type RequestStatus, type RequestView } from '../../shared/requests';
import { csvRows } from '../batch/csv-rows';
import { guessCsvSeparator } from '../batch/input-format';
import { peekText, textChunks, type BatchInputSource } from '../batch/text-chunks';
import { checkRequiredColumns, IMPORT_FIELDS, importMapping, type ImportField, type ImportMapping } from './import-mapping';
import { dayOf, readActions, readChannel, readSpreadsheetDate, readStatus, readUids, type Read } from './import-values';
import type { RequestStore } from './request-store';

/**
 * A DPO's existing spreadsheet into the register, in two steps: previewImport reads the file and says what each line
 * would become (nothing written), importRequests creates the requests once the DPO typed the count back. Each request
 * goes through the store, so it gets its id and its audit entry like one added by hand.
 */

/** A register spreadsheet is hundreds of lines; more is not one, and each request is a durable write. */
export const MAX_IMPORT_LINES = 10_000;

export interface ImportOptions {
  /** The register's time zone: what a date written without an offset means. */
  timeZone: string;
  /** Fields the DPO named a column for; the others are guessed from the headers. */
  mapping?: ImportMapping;
  /** Guessed from the header line when not given. */
  separator?: BatchSeparator;
  /** The profile every imported uid belongs to, when the DPO said which. */
  profileId?: string;
  /** References already in the register (importedReferences), so a file imported twice does not double its requests. */
  alreadyImported?: ReadonlyMap<string, string>;
  now?: number;
}

export interface ImportRow {
  /** The file's line the row starts on (1 is the header). */
  line: number;
  /** The spreadsheet's own id of the request, kept in the notes. */
  reference?: string;
  /** Present when the line has no problem. */
  request?: NewRequest;
  /** The status the spreadsheet gives, applied after creation (waiting-for-identity is left to the DPO: see statusNote). */
  status?: RequestStatus;
  refusalGround?: string;
  problems: MessageText[];
}

export interface ImportPreview {
  separator: BatchSeparator;
  timeZone: string;
  columns: string[];
  mapping: ImportMapping;
  /** Columns no field reads. */
  ignoredColumns: string[];
  rows: ImportRow[];
  counts: { lines: number; valid: number; withProblems: number };
}

export async function previewImport(source: BatchInputSource, options: ImportOptions): Promise<ImportPreview> {
  const { sample, all } = await peekText(textChunks(source), 64 * 1024);
  const separator = options.separator ?? guessSeparator(sample);
  const rows = csvRows(all, SEPARATOR_CHARACTERS[separator]);
  let columns: string[] | undefined;
  let mapping: ImportMapping = {};
  const read: ImportRow[] = [];
  const lineOfReference = new Map<string, number>();
  for await (const row of rows) {
    if (row.cells.every((cell) => cell.trim() === '')) continue;
    if (!columns) {
      columns = row.cells.map((cell) => cell.trim());
      mapping = importMapping(columns, options.mapping);
      checkRequiredColumns(columns, mapping);
      continue;
    }
    if (read.length >= MAX_IMPORT_LINES) throw invalidInput(msg('requestImport.tooManyLines', { limit: MAX_IMPORT_LINES }));
    const indexes = columns;
    const cellOf = (field: ImportField) => {
      const column = mapping[field];
      return column === undefined ? '' : (row.cells[indexes.indexOf(column)] ?? '').trim();
    };
    const imported = rowOf(row.line, cellOf, options);
    const existing = imported.reference === undefined ? undefined : options.alreadyImported?.get(imported.reference);
    if (existing !== undefined) importProblem(imported, msg('requestImport.alreadyImported', { reference: imported.reference as string, id: existing }));
    else if (imported.reference !== undefined) {
      const earlier = lineOfReference.get(imported.reference);
      if (earlier !== undefined) importProblem(imported, msg('requestImport.duplicateReference', { reference: imported.reference, line: earlier }));
      else lineOfReference.set(imported.reference, row.line);
    }
    read.push(imported);
  }
  if (!columns) throw invalidInput(msg('requestImport.empty'));
  const mapped = new Set(Object.values(mapping));
  const valid = read.filter((row) => row.request).length;
  return {
    separator,
    timeZone: options.timeZone,
    columns,
    mapping: Object.fromEntries(IMPORT_FIELDS.filter((field) => mapping[field] !== undefined).map((field) => [field, mapping[field]])),
    ignoredColumns: columns.filter((column) => !mapped.has(column)),
    rows: read,
    counts: { lines: read.length, valid, withProblems: read.length - valid },
  };
}

/** Tab when the header holds one (no register field holds a tab); else whichever of , and ; the header is split by. */
function guessSeparator(sample: string): BatchSeparator {
  const header = sample.split('\n').find((line) => line.trim() !== '') ?? '';
  return header.includes('\t') ? 'tab' : (guessCsvSeparator(header, undefined, true) ?? 'comma');
}

function rowOf(line: number, cellOf: (field: ImportField) => string, options: ImportOptions): ImportRow {
  const problems: MessageText[] = [];
  const take = <T>(read: Read<T>): T | undefined => ('problem' in read ? (problems.push(read.problem), undefined) : read.value);
  const required = (field: ImportField) => {
    const cell = cellOf(field);
    if (cell === '') problems.push(msg('requestImport.emptyCell', { field }));
    return cell;
  };
  const reference = cellOf('reference') || undefined;
  const now = options.now ?? Date.now();

  const receivedCell = required('received');
  const receivedAt = receivedCell === '' ? undefined : take(readSpreadsheetDate(receivedCell, 'received', options.timeZone));
  if (receivedAt !== undefined && Date.parse(receivedAt) > now) problems.push(msg('requestImport.futureDate', { field: 'received', value: receivedCell }));
  const answeredCell = cellOf('answered');
  const answeredAt = answeredCell === '' ? undefined : take(readSpreadsheetDate(answeredCell, 'answered', options.timeZone));
  if (answeredAt !== undefined && receivedAt !== undefined && Date.parse(answeredAt) < Date.parse(receivedAt)) problems.push(msg('requestImport.answeredBeforeReceived', { value: answeredCell }));
  const actionCell = required('action');
  const actions = actionCell === '' ? undefined : take(readActions(actionCell));
  const uids = readUids(required('uid'));
  const channel = take(readChannel(cellOf('channel')));
  const status = take(readStatus(cellOf('status'), answeredAt !== undefined));
  const refusalGround = status === 'refused' ? cellOf('ground') || 'Refused, as recorded in the imported spreadsheet (no ground given there).' : undefined;
  if (refusalGround !== undefined) checked(requestChangeSchema, { kind: 'refuse', ground: refusalGround }, 'ground', problems);

  const name = cellOf('requester');
  const contact = cellOf('contact');
  const request: NewRequest = {
    receivedAt: receivedAt ?? '',
    channel,
    actions: actions ?? [],
    subjects: uids.map((uid) => ({ uid, ...(options.profileId ? { profileId: options.profileId } : {}) })),
    ...(name || contact ? { requester: { ...(name ? { name } : {}), ...(contact ? { contact } : {}) } } : {}),
    notes: importNotes({ line, reference, answeredDay: answeredAt && dayOf(answeredAt, options.timeZone), status, notes: cellOf('notes') }),
  };
  if (problems.length === 0) checked(newRequestSchema, request, 'request', problems);
  const row: ImportRow = { line, ...(reference !== undefined ? { reference } : {}), problems };
  return problems.length > 0 ? row : { ...row, request, ...(status ? { status } : {}), ...(refusalGround !== undefined ? { refusalGround } : {}) };
}

/** The register has no field for the spreadsheet's own id nor a past answer date: the notes keep them, findable with --text. */
function importNotes(facts: { line: number; reference: string | undefined; answeredDay: string | undefined; status: RequestStatus | undefined; notes: string }): string {
  const parts = [`Imported from a spreadsheet (line ${facts.line}${facts.reference !== undefined ? `, reference ${facts.reference}` : ''}).`];
  if (facts.answeredDay) parts.push(`${facts.status === 'refused' ? 'Refused' : 'Answered'} on ${facts.answeredDay}, according to the spreadsheet.`);
  if (facts.status === 'waiting-for-identity') parts.push(statusNote);
  if (facts.notes) parts.push(facts.notes);
  return parts.join('\n');
}

const IMPORTED_NOTE = /^Imported from a spreadsheet \(line \d+, reference (.+)\)\.$/m;

/** The spreadsheet references the register already holds (from the note each import writes) → the request's id. */
export function importedReferences(views: ReadonlyArray<Pick<RequestView, 'id' | 'notes'>>): Map<string, string> {
  const references = new Map<string, string>();
  for (const view of views) {
    const reference = view.notes === undefined ? undefined : IMPORTED_NOTE.exec(view.notes)?.[1];
    if (reference !== undefined) references.set(reference, view.id);
  }
  return references;
}

/** Pausing at import time would move the deadline by days that did not pass waiting; the DPO pauses it with the real date. */
const statusNote = 'Waiting for the requester’s identity, according to the spreadsheet: imported as received, the clock not paused.';

function checked(schema: typeof newRequestSchema | typeof requestChangeSchema, value: unknown, whole: string, problems: MessageText[]): void {
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues.slice(0, 3)) problems.push(msg('requestImport.invalidField', { field: issue.path.join('.') || whole, problem: issue.message }));
}

function importProblem(row: ImportRow, problem: MessageText): void {
  row.problems.push(problem);
  delete row.request;
  delete row.status;
  delete row.refusalGround;
}

/** What the DPO types to import: `IMPORT 42`, the number of requests to be created. */
export function importConfirmationPhrase(count: number): string {
  return `IMPORT ${count}`;
}

export function matchesImportConfirmation(typed: string, count: number): boolean {
  return typed.trim().replace(/\s+/g, ' ') === importConfirmationPhrase(count);
}

export interface ImportOutcome {
  imported: Array<{ line: number; id: string; status: RequestStatus }>;
  /** A request the store refused or could not write: the import stopped there, the earlier ones stay imported. */
  stopped?: { line: number; error: unknown };
}

/** Creates each valid row's request (then its status), in the file's order; refuses, writing nothing, unless confirmed. */
export async function importRequests(store: RequestStore, preview: ImportPreview, confirmation: string): Promise<ImportOutcome> {
  const valid = preview.rows.filter((row) => row.request);
  if (valid.length === 0) throw invalidInput(msg('requestImport.nothingToImport'));
  if (!matchesImportConfirmation(confirmation, valid.length)) {
    throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('requestImport.notConfirmed', { phrase: importConfirmationPhrase(valid.length) }) });
  }
  const outcome: ImportOutcome = { imported: [] };
  for (const row of valid) {
    try {
      let view = await store.create(row.request as NewRequest);
      if (row.status === 'in-progress') view = await store.apply(view.id, { kind: 'update', fields: { status: 'in-progress' } });
      else if (row.status === 'answered') view = await store.apply(view.id, { kind: 'close' });
      else if (row.status === 'refused') view = await store.apply(view.id, { kind: 'refuse', ground: row.refusalGround as string });
      outcome.imported.push({ line: row.line, id: view.id, status: view.status });
    } catch (error) {
      outcome.stopped = { line: row.line, error };
      break;
    }
  }
  return outcome;
}
