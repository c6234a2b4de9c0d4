import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { reconcile, type Reconciliation } from '../../core/reconcile/reconcile';
import { COMPARISON_RULE, reconcileJson } from '../../core/reconcile/reconcile-export';
import { invalidInput } from '../../shared/errors';
import { uidListText, type NearMatchDifference } from '../../shared/reconcile';
import { openBatchInput, parseColumn, parseSeparator, withSeparatorHint } from '../batch-input';
import { addConnectionOptions, parseTimeoutMs, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';
import type { CliOutput } from '../output';
import { visibleText, visibleUid } from '../visible-text';

interface ReconcileFlags extends ConnectionOptions {
  separator?: string;
  column?: string;
  orphansTo?: string;
  json?: boolean;
}

/** How many uids of each set the text output names (--json and --orphans-to give them all). */
const SHOWN = 20;

const DIFFERENCE_WORDS: Record<NearMatchDifference, string> = {
  'edge-spaces': 'spaces or invisible characters at an end',
  'inner-spaces': 'spaces inside',
  invisible: 'invisible characters',
  compatibility: 'compatibility forms (full-width letters, ligatures…)',
  case: 'capitals',
};

const RECONCILE_EXIT_HELP = `
Exit codes of users reconcile:
  0  compared, whatever the sets hold (nothing is changed on the service)
  1  the service's users could not all be read: nothing is compared
  2  usage error: no valid uid in the list, an unknown column, a file that
     cannot be read, or an --orphans-to file that cannot be written (said
     before the service is read)`;

/** `users reconcile FILE`: the application's current uids against every user of the service. Read-only. */
export function withUsersReconcile(users: Command, { io, out }: CliContext): Command {
  addConnectionOptions(
    users
      .command('reconcile <file>')
      .description('compare the client application’s current uid list (FILE, or - for standard input) with every user of the service: orphans (on the service only), missing (in the application only), in both, near matches. Nothing is changed')
      .option('--separator <comma|semicolon|tab|none>', 'what separates the columns (default: guessed from the first line); none: one uid a line, each line whole')
      .option('--column <name|n>', 'the uid column: a header name, or a 0-based index when all digits')
      .option('--orphans-to <file>', 'write the orphans to this file as a list that `batch anonymize|delete FILE --separator none` reads')
      .option('--json', 'print JSON on stdout: the uid arrays orphans, missing, inBoth and nearMatches, with their counts')
      .addHelpText('after', `\nHow uids are compared: ${COMPARISON_RULE}.\n${RECONCILE_EXIT_HELP}`),
  ).action(async (file: string, opts: ReconcileFlags) => {
    const format = parseSeparator(opts.separator);
    const uidColumn = parseColumn(opts.column, '--column');
    const { desk, profileId } = await resolveConnection(opts, io.env);
    const profile = await desk.getProfile(profileId);
    if (opts.orphansTo !== undefined) await assertWritable(opts.orphansTo);
    const input = await openBatchInput(file, io);
    const timeoutMs = parseTimeoutMs(opts.timeout);
    const progress = io.stderr.isTTY === true;
    const result = await reconcile({
      source: input.source,
      sourceName: input.sourceName,
      input: { kind: format.kind ?? 'auto', ...(format.separator ? { separator: format.separator } : {}), ...(uidColumn !== undefined ? { uidColumn } : {}) },
      listPage: (page) => desk.listUsers(profileId, page),
      walk: {
        ...(timeoutMs !== undefined ? { pageRetry: { budgetMs: 2 * timeoutMs } } : {}),
        onProgress: progress ? ({ page, collected, totalPages }) => io.stderr.write(`\rreading page ${page}${totalPages ? ` of ${totalPages}` : ''}, ${collected} users`) : undefined,
      },
    }).catch(withSeparatorHint);
    if (progress) io.stderr.write('\r\u001b[2K');
    if (opts.orphansTo !== undefined) await writeOrphans(opts.orphansTo, result);
    if (opts.json) {
      out.json({ ...reconcileJson(result), ...(opts.orphansTo !== undefined ? { orphansFile: opts.orphansTo } : {}) });
      if (nothingInBoth(result)) out.note(NOTHING_IN_BOTH);
      if (opts.orphansTo !== undefined) out.note(batchHint(opts.orphansTo, result));
      return;
    }
    printReconciliation(out, result, profile.name);
    if (nothingInBoth(result)) out.line(NOTHING_IN_BOTH);
    if (opts.orphansTo !== undefined) out.line(batchHint(opts.orphansTo, result));
  });
  return users;
}

/** Every user of the service an orphan: far more often the wrong column, file or profile than an application with no user left. */
const NOTHING_IN_BOTH =
  'WARNING: no uid of the list is on the service, so every user of the service is an orphan. Check that the list holds the application’s uids (the right column, the right file) and that this is the right service before erasing any of them.';

function nothingInBoth({ summary: { counts } }: Reconciliation): boolean {
  return counts.inBoth === 0 && counts.nearMatches === 0 && counts.orphans > 0;
}

/** Before the walk (minutes on a large service): the orphans file's folder exists and is writable, and it is no folder. */
async function assertWritable(path: string): Promise<void> {
  try {
    const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing?.isDirectory()) throw Object.assign(new Error('a folder'), { code: 'EISDIR' });
    await access(existing ? path : dirname(resolve(path)), constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'it cannot be written';
    throw invalidInput(`Cannot write the orphans to "${visibleText(path)}" (${code === 'ENOENT' ? 'its folder does not exist' : code}). Nothing was read from the service; give another path.`);
  }
}

async function writeOrphans(path: string, result: Reconciliation): Promise<void> {
  try {
    await writeFile(path, uidListText(result.sets.orphans), { mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'it cannot be written';
    throw invalidInput(`Cannot write the orphans to "${path}" (${code}). Nothing was sent.`);
  }
}

function batchHint(path: string, result: Reconciliation): string {
  const count = result.sets.orphans.length;
  const quoted = `'${path.replaceAll("'", "'\\''")}'`;
  return count === 0
    ? `No orphan: ${visibleText(path)} holds only its header line.`
    : `${count} orphan${count === 1 ? '' : 's'} written to ${visibleText(path)}. To erase them (a preview and the typed count first, as for any batch):\n  privacy-desk batch anonymize ${visibleText(quoted)} --separator none --reference ${result.summary.reference}\n  (or batch delete …)`;
}

function printReconciliation(out: CliOutput, result: Reconciliation, profileName: string): void {
  const { summary, sets } = result;
  const { counts, input } = summary;
  // Which column held the uids: a CSV or TSV file read from the wrong one makes every user an orphan.
  const column = input.uidColumn ? `, from column ${input.uidColumn.name !== undefined ? `“${visibleText(input.uidColumn.name)}” (number ${input.uidColumn.index})` : `number ${input.uidColumn.index}`}` : '';
  out.line(`Reconciled ${visibleText(input.sourceName)} (${counts.applicationUids} distinct uids${column}) with the users of ${visibleText(profileName)}: ${counts.serviceUsers} users, ${summary.pages} page${summary.pages === 1 ? '' : 's'} read.`);
  out.line(`How uids are compared: ${COMPARISON_RULE}.`);
  const notes = [
    input.invalidCount > 0 ? `${input.invalidCount} invalid line${input.invalidCount === 1 ? '' : 's'} left out` : '',
    input.duplicates > 0 ? `${input.duplicates} repeated uid${input.duplicates === 1 ? '' : 's'} counted once` : '',
    input.sameAfterNfc > 0 ? `${input.sameAfterNfc} uid${input.sameAfterNfc === 1 ? '' : 's'} equal to another once in NFC counted once` : '',
    counts.withoutUid > 0 ? `${counts.withoutUid} anonymised user${counts.withoutUid === 1 ? '' : 's'} on the service (no uid) in no set` : '',
  ].filter(Boolean);
  if (notes.length > 0) out.line(`  (${notes.join('; ')})`);
  for (const line of input.invalid.slice(0, 5)) out.line(`  line ${line.line}: ${line.reason} “${visibleText(line.excerpt)}”`);
  out.line();
  out.line(`  orphans (on the service, not in the application: candidates for erasure): ${counts.orphans}`);
  out.line(`  missing (in the application, not on the service): ${counts.missing}`);
  out.line(`  in both: ${counts.inBoth}`);
  out.line(`  near matches (held apart: neither orphans nor missing, never offered for erasure): ${counts.nearMatches}`);
  printSome(out, 'Orphans', sets.orphans);
  printSome(out, 'Missing', sets.missing);
  if (sets.nearMatches.length > 0) {
    out.line();
    out.line('Near matches (service ~ application: what differs):');
    for (const near of sets.nearMatches.slice(0, SHOWN)) {
      out.line(`  ${visibleUid(near.service)} ~ ${visibleUid(near.application)}: ${near.differences.map((kind) => DIFFERENCE_WORDS[kind]).join(', ')}`);
    }
    if (sets.nearMatches.length > SHOWN) out.line(`  … and ${sets.nearMatches.length - SHOWN} more (--json for all)`);
  }
  out.line();
  out.line(`Reference for a batch of these orphans: ${summary.reference} (--orphans-to FILE writes the list).`);
}

function printSome(out: CliOutput, title: string, uids: readonly string[]): void {
  if (uids.length === 0) return;
  out.line();
  out.line(`${title}${uids.length > SHOWN ? ` (the first ${SHOWN} of ${uids.length}: --json or --orphans-to for all)` : ''}:`);
  for (const uid of uids.slice(0, SHOWN)) out.line(`  ${visibleUid(uid)}`);
}
