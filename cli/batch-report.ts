import { isLocalBaseUrl } from '../shared/profile';
import type { BatchCheckResult, BatchCounts, BatchInvalidLine, BatchLookalike, BatchPreview, BatchResultRow } from '../shared/batch';
import type { ErasureAction } from '../shared/users';
import { BATCH_OPERATION_WORDS, doneCount, plural } from './batch-words';
import { escapeInvisible, visibleText } from './visible-text';

/** Where the human-readable text goes: stdout, or stderr when --json keeps stdout for the one JSON document. */
export type Say = (text: string) => void;

/** Invalid lines listed before "and N more". */
export const INVALID_LINES_SHOWN = 20;
/** Missing uids listed after a --check. */
export const MISSING_SHOWN = 20;

/** How the input was read, in words: a list, CSV and its separator, TSV. */
function formatWords(preview: Pick<BatchPreview, 'kind' | 'separator'>): string {
  if (preview.kind === 'list') return 'a list, one uid a line';
  if (preview.kind === 'tsv') return 'TSV (tab-separated)';
  return preview.separator === 'semicolon' ? 'CSV, semicolon-separated' : 'CSV, comma-separated';
}
const EXPORT_NAMES: Record<NonNullable<BatchPreview['fromExport']>, string> = { audit: 'a Privacy Desk audit export', 'batch-results': 'a Privacy Desk batch results export' };

/** A uid (or any value from the input or the service) quoted, every character a reader cannot see (controls, bidi marks, no-break and zero-width spaces…) shown as an escape. */
export function quoted(value: string): string {
  return `“${escapeInvisible(value)}”`;
}

/** Step 1: what was read. Nothing has been sent. */
export function sayPreview(say: Say, preview: BatchPreview): void {
  const columns = preview.columns?.length ? `, columns ${preview.columns.map(quoted).join(', ')}` : '';
  say(`Read ${visibleText(preview.sourceName)} (${formatWords(preview)}${columns}):`);
  say(`  valid uids:          ${preview.items}${preview.withReference > 0 ? ` (${preview.withReference} with their own reference)` : ''}`);
  if (preview.uidColumn && preview.kind !== 'list') say(`  uids read from:      ${uidColumnWords(preview.uidColumn)}`);
  if (preview.fromExport) say(`  read as:             ${EXPORT_NAMES[preview.fromExport]}: the apostrophe it puts before cells a spreadsheet would run (= + - @ ') is taken off`);
  say(`  duplicates removed:  ${preview.duplicates}`);
  say(`  invalid lines:       ${preview.invalidCount}${preview.invalidCount > 0 ? ' (left out: nothing is sent for them)' : ''}`);
  sayInvalidLines(say, preview.invalid, preview.invalidCount);
  sayEdgeSpaces(say, preview.edgeSpaces);
}

function uidColumnWords(column: NonNullable<BatchPreview['uidColumn']>): string {
  return column.name !== undefined && column.name !== '' ? `column ${quoted(column.name)} (index ${column.index})` : `column index ${column.index} (no header)`;
}

/** Spaces at either end of a uid are kept (uids are exact), but are often a copy-paste slip: said plainly. */
function sayEdgeSpaces(say: Say, edgeSpaces: BatchPreview['edgeSpaces']): void {
  if (edgeSpaces.count === 0) return;
  const lines = `${edgeSpaces.lines.join(', ')}${edgeSpaces.count > edgeSpaces.lines.length ? ', …' : ''}`;
  const subject = edgeSpaces.count === 1 ? '1 uid begins or ends with spaces and is' : `${edgeSpaces.count} uids begin or end with spaces and are`;
  say(`  ${subject} kept exactly (${edgeSpaces.lines.length === 1 && edgeSpaces.count === 1 ? 'line' : 'lines'} ${lines}): check they match the request.`);
}

/** Without --check: what the look-up would have added (one line). */
export function sayCheckHint(say: Say): void {
  say('Not looked up (add --check): --check shows which uids exist, and keeps a missing uid whose first attempt got no answer from counting as "done before an interruption".');
}

function sayInvalidLines(say: Say, invalid: BatchInvalidLine[], invalidCount: number): void {
  const shown = invalid.slice(0, INVALID_LINES_SHOWN);
  for (const line of shown) say(`    line ${line.line}: ${visibleText(line.reason)}${line.excerpt ? ` — ${quoted(line.excerpt)}` : ''}`);
  if (invalidCount > shown.length) say(`    and ${invalidCount - shown.length} more`);
}

/** Step 2 (--check): which uids the service knows — as they will be sent, once --use-trimmed chose the trimmed uids. */
export function sayCheck(say: Say, check: BatchCheckResult, items: number, useTrimmed = false): void {
  const whenTrimmed = useTrimmed && check.trimmable.count > 0 ? check.trimmable.whenTrimmed : undefined;
  const read = `Checked against the service (${plural(check.users, 'user')} read)`;
  if (whenTrimmed) {
    const trimmed = `${check.trimmable.count === 1 ? '1 is' : `${check.trimmable.count} are`} sent trimmed by --use-trimmed; as pasted, ${check.existing} existed`;
    say(`${read}: as they will be sent, ${whenTrimmed.existing} of ${items} uids exist, ${whenTrimmed.missing === 1 ? '1 does' : `${whenTrimmed.missing} do`} not (${trimmed}).`);
  } else {
    say(`${read}: ${check.existing} of ${items} uids exist, ${check.missing} do not.`);
  }
  if (check.missing === 0) return;
  const missing = whenTrimmed ? { count: whenTrimmed.missing, sample: whenTrimmed.missingSample } : { count: check.missing, sample: check.missingSample };
  if (missing.count > 0) {
    say(`  Not found (each will end as "not found": already erased, or never existed):`);
    const shown = missing.sample.slice(0, MISSING_SHOWN);
    for (const uid of shown) say(`    ${quoted(uid)}`);
    if (missing.count > shown.length) say(`    and ${missing.count - shown.length} more`);
  }
  sayTrimmable(say, check.trimmable, useTrimmed);
  if (check.lookalikes) sayLookalikes(say, check.lookalikes);
}

/** Pasted with spaces or invisible characters at an end, not on the service, while the trimmed uid is: a likely mistake, and the choice that undoes it. */
function sayTrimmable(say: Say, trimmable: BatchCheckResult['trimmable'], useTrimmed: boolean): void {
  if (trimmable.count === 0) {
    if (useTrimmed) say('  --use-trimmed: no uid with spaces or invisible characters at an end has its trimmed form on the service; every uid is sent as it is.');
    return;
  }
  const subject =
    trimmable.count === 1
      ? '1 uid begins or ends with spaces or invisible characters and is not on the service, but the same uid without them is'
      : `${trimmable.count} uids begin or end with spaces or invisible characters and are not on the service, but the same uids without them are`;
  say(`  Likely mistake: ${subject}:`);
  for (const item of trimmable.sample) say(`    line ${item.line}: ${quoted(item.uid)} → ${quoted(item.trimmed)}`);
  if (trimmable.count > trimmable.sample.length) say(`    and ${trimmable.count - trimmable.sample.length} more`);
  if (useTrimmed) say('  --use-trimmed: the trimmed uids are sent; the job and the audit trail record each uid as pasted and that you chose its trimmed form.');
  else say('  Sent as pasted, they end "not found" and those users keep their data. To send the trimmed uids instead, add --use-trimmed (recorded in the job and the audit trail).');
}

const LOOKALIKE_WHY: Record<BatchLookalike['why'], string> = { case: 'capitals or accents differ', invisible: 'invisible characters differ' };

/**
 * Not on the service, while a uid that differs only in capitals, accents or invisible characters inside is: said
 * with that uid, never sent in its place (two such uids may be two people): the operator corrects the list.
 */
function sayLookalikes(say: Say, lookalikes: NonNullable<BatchCheckResult['lookalikes']>): void {
  if (lookalikes.count === 0) return;
  const subject = lookalikes.count === 1 ? '1 uid is not on the service, but a uid that differs from it' : `${lookalikes.count} uids are not on the service, but a uid that differs from each`;
  say(`  Likely mistake: ${subject} only in capitals, accents or invisible characters is:`);
  for (const item of lookalikes.sample) say(`    line ${item.line}: ${quoted(item.uid)} — on the service: ${item.onService.map(quoted).join(', ')} (${LOOKALIKE_WHY[item.why]})`);
  if (lookalikes.count > lookalikes.sample.length) say(`    and ${lookalikes.count - lookalikes.sample.length} more`);
  say('  They are sent as pasted and end "not found": uids are exact, and one that differs in capitals may be another person. If the uid on the service is the one the request names, correct those lines in the list and preview it again.');
}

export interface ConfirmationFacts {
  profileName: string;
  baseUrl: string;
  action: ErasureAction;
  logoutFirst: boolean;
  reference?: string;
  /** Items that carry their own reference (from a reference column). */
  withReference: number;
  count: number;
  /** As they will be sent. */
  firstUids: string[];
  lastUids: string[];
  /** The same uids as pasted, when some are sent trimmed (--use-trimmed): each that differs is said beside it. */
  pasted?: { firstUids: string[]; lastUids: string[] };
  /** For a resume: where the job stands before it goes on. */
  resumeOf?: { batchId: string; total: number; counts: BatchCounts };
  /** For a retry of the failed items: where the job stands, and whether the check chose what is sent. */
  retryOf?: { batchId: string; total: number; counts: BatchCounts; checked: boolean };
}

/** Step 3: what is about to happen, where, and to whom. */
export function sayConfirmation(say: Say, facts: ConfirmationFacts): void {
  const words = BATCH_OPERATION_WORDS[facts.action];
  const marking = isLocalBaseUrl(facts.baseUrl) ? 'on this computer' : 'LIVE DATA';
  say('');
  const job = facts.resumeOf ?? facts.retryOf;
  say(facts.retryOf ? `About to send the failed items of batch ${facts.retryOf.batchId} again — irreversible:` : facts.resumeOf ? `About to resume batch ${facts.resumeOf.batchId} — irreversible:` : 'About to run this batch — irreversible:');
  say(`  environment:  ${visibleText(facts.profileName)} — ${visibleText(facts.baseUrl)} (${marking})`);
  say(`  operation:    ${words.name}: ${words.what}`);
  const notEnded = job ? 'not ended first (as confirmed when the job started)' : 'NOT ended first (--no-logout-first: the erasure only)';
  say(`  sessions:     ${facts.logoutFirst ? 'each user’s sessions are ended first (a logout, then the erasure)' : notEnded}`);
  say(`  reference:    ${referenceWords(facts)}`);
  if (job) {
    const { counts, total } = job;
    say(`  so far:       ${total} items: ${doneCount(counts)} done, ${counts.notFound} not found, ${counts.failed} failed, ${counts.unfinished} unfinished`);
    if (facts.retryOf) say(`  to send:      ${plural(facts.count, 'failed item')} again, ${facts.retryOf.checked ? 'each still on the service at the check' : 'not checked (--no-check): a 404 for one whose earlier attempt got no clear answer means it was done before'}`);
    else say(`  to send:      ${plural(facts.count, 'unfinished item')} (an item that was in flight is sent again: a 404 then means it was done before the interruption)`);
  } else {
    say(`  users:        ${facts.count}`);
  }
  // A short list's first and last uids overlap: each uid is shown once.
  const skip = Math.max(0, facts.firstUids.length + facts.lastUids.length - facts.count);
  const lastUids = facts.lastUids.slice(skip);
  const withPasted = (uids: string[], pasted: string[] | undefined) => uids.map((uid, index) => (pasted?.[index] !== undefined && pasted[index] !== uid ? `${quoted(uid)} (pasted ${quoted(pasted[index])})` : quoted(uid)));
  if (facts.firstUids.length > 0) say(`  first:        ${withPasted(facts.firstUids, facts.pasted?.firstUids).join(', ')}`);
  if (lastUids.length > 0) say(`  last:         ${withPasted(lastUids, facts.pasted?.lastUids.slice(skip)).join(', ')}`);
}

function referenceWords(facts: ConfirmationFacts): string {
  // A job keeps what it was started with: each item's own reference, else the batch's.
  if (facts.resumeOf || facts.retryOf) return facts.reference !== undefined ? `${quoted(facts.reference)} for the items without their own` : 'as recorded with each item (no reference for the whole batch)';
  if (facts.withReference > 0 && facts.withReference >= facts.count) {
    return `each item carries its own (from the reference column)${facts.reference !== undefined ? `; ${quoted(facts.reference)} is not needed` : ''}`;
  }
  const own = facts.withReference > 0 ? `${plural(facts.withReference, 'item carries', 'items carry')} their own` : '';
  if (facts.reference === undefined) return own ? `${own}; the others none` : 'none (add --reference to keep a ticket number in the audit trail)';
  return own ? `${quoted(facts.reference)} for the items without their own (${own})` : quoted(facts.reference);
}

/** Items sent trimmed named after `batch results` (all are in its pasted_uid column). */
const TRIMMED_SHOWN = 10;

/**
 * The items sent in their trimmed form by the operator's choice, each with the uid as pasted drawn visibly: in
 * the CSV's pasted_uid cell its spaces or invisible characters do not show.
 */
export async function sayTrimmedByChoice(say: Say, rows: AsyncIterable<BatchResultRow>): Promise<void> {
  const shown: Array<BatchResultRow & { pastedUid: string }> = [];
  let count = 0;
  for await (const row of rows) {
    if (row.pastedUid === undefined) continue;
    count += 1;
    if (shown.length < TRIMMED_SHOWN) shown.push({ ...row, pastedUid: row.pastedUid });
  }
  if (count === 0) return;
  say(`${count === 1 ? '1 item was' : `${count} items were`} sent in their trimmed form, by the operator’s choice (column pasted_uid: the uid as pasted):`);
  for (const row of shown) say(`  line ${row.line}: ${quoted(row.uid)}, pasted ${quoted(row.pastedUid)}`);
  if (count > shown.length) say(`  and ${count - shown.length} more`);
}

/** The last few of a stream of values (first ones are easy; the last need a small ring). */
export function lastOf<T>(values: T[], value: T, keep: number): void {
  values.push(value);
  if (values.length > keep) values.shift();
}
