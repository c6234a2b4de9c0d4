import { Command, Option } from 'commander';
import type { Desk } from '../../core/desk';
import { batchConfirmationPhrase, DEFAULT_BATCH_CONCURRENCY, MAX_BATCH_CONCURRENCY, type BatchCheckResult, type BatchPreview } from '../../shared/batch';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { referenceProblem, referenceProblemText } from '../../shared/reference';
import type { ErasureAction } from '../../shared/users';
import { obtainConfirmation } from '../batch-confirm';
import { openBatchInput, parseColumn, parseSeparator, withSeparatorHint } from '../batch-input';
import { INVALID_LINES_SHOWN, sayCheck, sayCheckHint, sayConfirmation, sayPreview, type Say } from '../batch-report';
import { followRun } from '../batch-run';
import { BATCH_EXIT_CODES_HELP, BATCH_INPUT_HELP, resumeCommand } from '../batch-help';
import { addConnectionOptions, addRetryForOption, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';
import { link, requestToLink } from '../request-link';
import type { CliIo } from '../io';
import { noteLiveData } from '../live-data';
import { parseWholeNumber } from '../parse';
import { visibleText } from '../visible-text';
import { withBatchJobCommands } from './batch-jobs';
import { withBatchRetryCommand } from './batch-retry';

interface BatchFlags extends ConnectionOptions {
  separator?: string;
  column?: string;
  referenceColumn?: string;
  reference?: string;
  request?: string;
  concurrency: string;
  logoutFirst?: boolean;
  check?: boolean;
  useTrimmed?: boolean;
  dryRun?: boolean;
  yes?: string;
  json?: boolean;
}

/** `batch anonymize|delete FILE`, `batch list`, `batch resume [JOB]`, `batch results JOB`, `batch retry JOB`. */
export function batchCommand(context: CliContext): Command {
  const batch = new Command('batch').description('erase many users from a list, CSV or TSV file: preview, typed confirmation, a resumable run');
  for (const action of ['anonymize', 'delete'] as const) {
    const command = batch
      .command(`${action} <file>`)
      .aliases(action === 'anonymize' ? ['anonymise'] : [])
      .description(`${action === 'anonymize' ? 'anonymise every user of FILE: erase name, e-mail, uid and image; keep contributions' : 'delete every user of FILE and all their contributions'} (irreversible)`)
      .option('--separator <comma|semicolon|tab|none>', 'what separates the columns (default: guessed from the first line); none: one uid a line, each line whole')
      .option('--column <name|n>', 'the uid column: a header name, or a 0-based index when all digits')
      .option('--reference-column <name|n>', 'a column with each item’s own reference: a header name, or a 0-based index when all digits')
      .option('--reference <ref>', 'ticket or request number for the items without their own, kept in the audit trail')
      .option('--request <id>', 'a request of the register (REQ-YYYY-NNNN): the batch job is linked to it, and its id is the reference when --reference is not given')
      .option('--concurrency <n>', `requests at once (1-${MAX_BATCH_CONCURRENCY})`, String(DEFAULT_BATCH_CONCURRENCY))
      .option('--no-logout-first', 'do not end each user’s sessions first (by default a logout is sent, then the erasure)')
      // The default since sessions are ended first everywhere; still accepted from older scripts.
      .addOption(new Option('--logout-first').hideHelp())
      .option('--check', 'before confirming, look the uids up on the service (reads every page of users; nothing is changed)')
      .option('--use-trimmed', 'with --check: send the trimmed form of uids pasted with spaces at an end that are not on the service while their trimmed form is (recorded in the job and the audit trail)')
      .option('--dry-run', 'stop after the preview: nothing is sent')
      .option('--yes <phrase>', 'the typed confirmation, e.g. --yes "DELETE 250" (the operation and the count of valid uids)')
      .option('--json', 'print only a JSON summary on stdout: { batchId, state, total, counts, resultsFile }')
      .addHelpText('after', `${BATCH_INPUT_HELP}\n${BATCH_EXIT_CODES_HELP}`);
    addConnectionOptions(addRetryForOption(command)).action((file: string, opts: BatchFlags) => runBatch(context, action, file, opts));
  }
  return withBatchRetryCommand(withBatchJobCommands(batch, context), context);
}

async function runBatch(context: CliContext, action: ErasureAction, file: string, opts: BatchFlags): Promise<void> {
  const { io, out } = context;
  const concurrency = parseWholeNumber(opts.concurrency, '--concurrency', { max: MAX_BATCH_CONCURRENCY });
  const format = parseSeparator(opts.separator);
  const uidColumn = parseColumn(opts.column, '--column');
  const referenceColumn = parseColumn(opts.referenceColumn, '--reference-column');
  if (opts.reference !== undefined && opts.reference.trim() === '') throw invalidInput('--reference takes 1 to 200 characters (a ticket or request number).');
  const referenceIssue = referenceProblem(opts.reference);
  if (referenceIssue) throw invalidInput(msg('input.nothingSent', { problem: referenceProblemText(referenceIssue) }));
  if (opts.useTrimmed && !opts.check) throw invalidInput('--use-trimmed needs --check: only the check tells which uids with spaces at an end have their trimmed form on the service. Nothing was sent.');
  const { desk, profileId } = await resolveConnection(opts, io.env);
  const requestId = await requestToLink(desk, opts.request);
  if (requestId && opts.reference === undefined) opts.reference = requestId;
  const profile = await desk.getProfile(profileId);
  const batch = desk.batch;
  // The profile's keys are read before anything else is said: a profile without them goes no further.
  await batch.checkConnection(profileId);
  // A dry run, a refusal or an error leaves no draft behind: only this command could have run it.
  (context.atEnd ??= []).push(() => batch.discardOpenDrafts());
  const say: Say = opts.json ? out.note : out.line;

  // 1. Read and check the input: nothing is sent.
  const input = await openBatchInput(file, io);
  const preview = await batch
    .preview({
      source: input.source,
      sourceName: input.sourceName,
      ...format,
      ...(uidColumn !== undefined ? { uidColumn } : {}),
      ...(referenceColumn !== undefined ? { referenceColumn } : {}),
      listInvalid: INVALID_LINES_SHOWN,
    })
    .catch(withSeparatorHint);
  sayPreview(say, preview);
  if (preview.items === 0) {
    throw invalidInput(`No valid uid in ${visibleText(input.sourceName)}: nothing to send.${uidColumn === undefined && preview.columns?.length ? ' Pick the uid column with --column NAME (or a 0-based index).' : ''}`);
  }

  // 2. Optionally, which uids the service knows (read-only).
  const check = opts.check ? await checkOnService(desk, io, preview, profileId) : undefined;
  if (check) sayCheck(say, check, preview.items, opts.useTrimmed === true);
  else sayCheckHint(say);

  // 3. What is about to happen, where — once the service has accepted the keys (a dry run sends nothing).
  if (!opts.dryRun) await batch.checkConnection(profileId, { token: true });
  noteLiveData(out, profile.baseUrl);
  sayConfirmation(say, {
    profileName: profile.name,
    baseUrl: profile.baseUrl,
    action,
    logoutFirst: opts.logoutFirst !== false,
    ...(opts.reference !== undefined ? { reference: opts.reference } : {}),
    withReference: preview.withReference,
    count: preview.items,
    ...sentEnds(preview, opts.useTrimmed === true ? check?.trimmable : undefined),
  });
  const phrase = batchConfirmationPhrase(action, preview.items);
  if (opts.dryRun) {
    say(`Dry run: nothing was sent. To run it, confirm with ${phrase} (or add --yes "${phrase}").`);
    if (opts.json) out.json(dryRunJson(preview, phrase, check));
    return;
  }

  // 4. The typed confirmation.
  const confirmation = await obtainConfirmation(
    { action, count: preview.items, yes: opts.yes, stdinIsInput: input.fromStdin, commandHint: `the same command (privacy-desk batch ${action} …)` },
    io,
  );

  // 5 and 6. The run, then the counts and the results.
  context.exitCode = await followRun(context, { batch, dataDir: desk.dataDir, json: opts.json === true, resumeCommand: (batchId) => resumeCommand(batchId, profile), unrecordedEntries: () => desk.pendingAuditEntries() }, (control) =>
    batch.start(
      {
        draftId: preview.draftId,
        profileId,
        action,
        logoutFirst: opts.logoutFirst !== false,
        ...(opts.reference !== undefined ? { reference: opts.reference } : {}),
        concurrency,
        confirmation,
        useTrimmed: opts.useTrimmed === true,
      },
      control,
    ).then(async (run) => {
      // Linked once the job exists, before its items are sent: the request's file names the job from its start.
      if (requestId) await link(desk, out, requestId, { batchJobIds: [run.batchId] });
      return run;
    }),
  );
}

async function checkOnService(desk: Desk, io: CliIo, preview: BatchPreview, profileId: string) {
  const progress = io.stderr.isTTY === true;
  const result = await desk.batch.check(
    { draftId: preview.draftId, profileId },
    {
      onProgress: progress ? ({ page, collected, totalPages }) => io.stderr.write(`\rchecking the uids: page ${page}${totalPages ? ` of ${totalPages}` : ''}, ${collected} users read`) : undefined,
    },
  );
  // The progress line is cleared (the counts follow in words), so "page 8 of 8" does not stay on screen.
  if (progress) io.stderr.write('\r\u001b[2K');
  return result;
}

/** The first and last uids as they will be sent: trimmed where --use-trimmed chose it, with their pasted form beside. */
function sentEnds(preview: BatchPreview, trimmable: BatchCheckResult['trimmable'] | undefined) {
  const sent = trimmable && trimmable.count > 0 ? trimmable.whenTrimmed : undefined;
  if (!sent) return { firstUids: preview.firstUids, lastUids: preview.lastUids };
  return { firstUids: sent.firstUids, lastUids: sent.lastUids, pasted: { firstUids: preview.firstUids, lastUids: preview.lastUids } };
}

function dryRunJson(preview: BatchPreview, phrase: string, check: Awaited<ReturnType<typeof checkOnService>> | undefined) {
  return {
    dryRun: true,
    source: preview.sourceName,
    format: preview.kind,
    ...(preview.separator ? { separator: preview.separator } : {}),
    items: preview.items,
    duplicates: preview.duplicates,
    invalidCount: preview.invalidCount,
    invalid: preview.invalid.slice(0, INVALID_LINES_SHOWN),
    ...(preview.uidColumn ? { uidColumn: preview.uidColumn } : {}),
    edgeSpaces: preview.edgeSpaces,
    firstUids: preview.firstUids,
    lastUids: preview.lastUids,
    confirmation: phrase,
    ...(check ? { check } : {}),
  };
}
