import type { Command } from 'commander';
import type { Desk } from '../../core/desk';
import { importConfirmationPhrase, importedReferences, importRequests, matchesImportConfirmation, previewImport, type ImportPreview } from '../../core/requests/register-import';
import type { ImportMapping } from '../../core/requests/import-mapping';
import type { BatchSeparator } from '../../shared/batch';
import { invalidInput, isPrivacyDeskError, PrivacyDeskError, toErrorInfo } from '../../shared/errors';
import { wordInEnglish } from '../../shared/messages';
import { openBatchInput } from '../batch-input';
import { promptLine } from '../batch-prompt';
import type { CliContext } from '../context';
import { EXIT_FAILED } from '../exit-codes';
import { printRequestTable, requestJson } from '../requests-print';
import { visibleText, visibleUid } from '../visible-text';

const FIRST_PROBLEMS = 10;
const FIRST_REQUESTS = 5;
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** `--column received="Date de réception"`: the DPO's word on which column holds a field. */
export function parseColumnOptions(values: readonly string[] = []): ImportMapping {
  const mapping: Record<string, string> = {};
  for (const value of values) {
    const equals = value.indexOf('=');
    if (equals < 1 || equals === value.length - 1) throw invalidInput(`--column takes field=NAME, e.g. --column received="Date de réception" (got "${visibleText(value)}").`);
    mapping[value.slice(0, equals).trim()] = value.slice(equals + 1);
  }
  return mapping;
}

function parseImportSeparator(value: string | undefined): BatchSeparator | undefined {
  if (value === undefined || ['comma', 'semicolon', 'tab'].includes(value)) return value as BatchSeparator | undefined;
  throw invalidInput(`--separator takes comma, semicolon or tab (got "${visibleText(value)}").`);
}

/** Everything from the file is the file's: printed escaped, never obeyed by the terminal; the requester never printed. */
function printPreview(out: CliContext['out'], preview: ImportPreview, file: string): void {
  const { counts } = preview;
  out.line(`${visibleText(file)}: ${counts.lines} line${counts.lines === 1 ? '' : 's'} (separator: ${preview.separator}; dates without an offset read in ${preview.timeZone})`);
  out.line('Columns:');
  for (const [field, column] of Object.entries(preview.mapping)) out.line(`  ${field.padEnd(10)} ← ${visibleText(`"${column}"`)}`);
  if (preview.ignoredColumns.length > 0) out.line(`  not read:  ${preview.ignoredColumns.map((column) => visibleText(`"${column}"`)).join(', ')}`);
  const withProblems = preview.rows.filter((row) => row.problems.length > 0);
  if (withProblems.length > 0) {
    out.line(`${withProblems.length} line${withProblems.length === 1 ? '' : 's'} with problems, left out:`);
    for (const row of withProblems.slice(0, FIRST_PROBLEMS)) out.line(`  line ${row.line}: ${row.problems.map((problem) => visibleText(wordInEnglish(problem))).join(' ')}`);
    if (withProblems.length > FIRST_PROBLEMS) out.line(`  … and ${withProblems.length - FIRST_PROBLEMS} more (--json lists them all)`);
  }
  const valid = preview.rows.filter((row) => row.request);
  out.line(`${counts.valid} request${counts.valid === 1 ? '' : 's'} to import${counts.valid > 0 ? ':' : '.'}`);
  for (const row of valid.slice(0, FIRST_REQUESTS)) {
    const request = row.request!;
    out.line(`  line ${row.line}: ${request.receivedAt}  ${request.actions.join(', ')}  ${request.subjects.map((s) => visibleUid(s.uid)).join(' ')}  ${row.status ?? 'received'}${row.reference !== undefined ? `  (${visibleText(row.reference)})` : ''}`);
  }
  if (valid.length > FIRST_REQUESTS) out.line(`  … and ${valid.length - FIRST_REQUESTS} more`);
}

function previewJson(preview: ImportPreview) {
  return {
    separator: preview.separator,
    timeZone: preview.timeZone,
    columns: preview.columns,
    mapping: preview.mapping,
    ignoredColumns: preview.ignoredColumns,
    counts: preview.counts,
    rows: preview.rows.map((row) =>
      row.request
        ? { line: row.line, reference: row.reference, receivedAt: row.request.receivedAt, channel: row.request.channel, actions: row.request.actions, uids: row.request.subjects.map((s) => s.uid), status: row.status, hasRequester: row.request.requester !== undefined }
        : { line: row.line, reference: row.reference, problems: row.problems.map((problem) => wordInEnglish(problem)) },
    ),
  };
}

/** `requests import FILE`: a DPO's spreadsheet into the register, previewed, confirmed by the count, then written. */
export function addRequestImportCommand(requests: Command, context: CliContext, desk: () => Promise<Desk>): void {
  const { io, out } = context;
  requests
    .command('import')
    .argument('<file>', 'the spreadsheet as CSV (comma or semicolon) or TSV, its first line naming the columns; "-" for standard input')
    .description('import requests from a spreadsheet: shows how each column is read and each line’s problems, then asks for the typed count')
    .option('--column <field=NAME>', 'the column holding a field (reference, received, channel, action, uid, requester, contact, notes, status, answered, ground); repeat', collect)
    .option('--separator <separator>', 'comma, semicolon or tab (default: guessed from the first line)')
    .option('--profile <name>', 'the profile (service) the uids belong to')
    .option('--dry-run', 'show the preview only; nothing is written')
    .option('--yes <phrase>', 'confirm without a question: "IMPORT N", N the number of requests to import')
    .option('--json', 'print the preview (and what was imported) as JSON on stdout')
    .action(async (file: string, opts: { column?: string[]; separator?: string; profile?: string; dryRun?: boolean; yes?: string; json?: boolean }) => {
      const mapping = parseColumnOptions(opts.column);
      const separator = parseImportSeparator(opts.separator);
      const input = await openBatchInput(file, io);
      const d = await desk();
      const profileId = opts.profile === undefined ? undefined : (await d.findProfile(opts.profile)).id;
      const { timeZone } = await d.requests.settings();
      const alreadyImported = importedReferences(await d.requests.list());
      const preview = await previewImport(input.source, { timeZone, mapping, alreadyImported, ...(separator ? { separator } : {}), ...(profileId ? { profileId } : {}) });
      if (!opts.json) printPreview(out, preview, file);
      const count = preview.counts.valid;
      if (opts.dryRun) {
        if (opts.json) out.json({ preview: previewJson(preview), dryRun: true });
        else out.line('Dry run: nothing was written.');
        return;
      }
      const phrase = importConfirmationPhrase(count);
      let typed = opts.yes;
      if (count > 0 && typed === undefined) {
        if (io.stdin.isTTY !== true || input.fromStdin) throw invalidInput(`No terminal to ask for the confirmation on: run the command again with --yes "${phrase}" to import ${count} request${count === 1 ? '' : 's'}. Nothing was written.`);
        typed = await promptLine(`Type ${phrase} to import ${count === 1 ? 'this request' : `these ${count} requests`} (anything else stops here): `, io);
      }
      if (count > 0 && !matchesImportConfirmation(typed ?? '', count)) {
        const given = opts.yes !== undefined ? `--yes "${visibleText(opts.yes)}"` : `"${visibleText(typed ?? '')}"`;
        throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message: `${given} does not confirm this import: to import ${count} request${count === 1 ? '' : 's'}, type ${phrase}. Nothing was written.` });
      }
      const outcome = await importRequests(d.requests, preview, typed ?? '');
      const ids = new Set(outcome.imported.map((item) => item.id));
      const views = (await d.requests.list()).filter((view) => ids.has(view.id));
      if (opts.json) out.json({ preview: previewJson(preview), imported: outcome.imported, requests: views.map(requestJson), ...(outcome.stopped ? { stopped: { line: outcome.stopped.line, error: toErrorInfo(outcome.stopped.error) } } : {}) });
      else {
        out.line(`Imported ${outcome.imported.length} request${outcome.imported.length === 1 ? '' : 's'}: ${outcome.imported.map((item) => `${item.id} (line ${item.line})`).join(', ')}`);
        printRequestTable(out, views);
      }
      if (outcome.stopped) {
        const { line, error } = outcome.stopped;
        const why = isPrivacyDeskError(error) ? `${error.code}: ${error.message}` : String(error);
        out.note(`The import stopped at line ${line}: ${visibleText(why)}. The requests above are in the register; fix the line and import the rest (from line ${line}) again.`);
        context.exitCode = EXIT_FAILED;
      }
    });
}
