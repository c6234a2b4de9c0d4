import type { Command } from 'commander';
import type { DeskBatch } from '../../core/batch/batch-types';
import { DEFAULT_BATCH_CONCURRENCY, isBeingRun, MAX_BATCH_CONCURRENCY, PREVIEW_ENDS, type BatchJobSummary } from '../../shared/batch';
import type { BatchRetryCheck } from '../../shared/batch-retry';
import { invalidInput } from '../../shared/errors';
import { obtainConfirmation } from '../batch-confirm';
import { BATCH_EXIT_CODES_HELP, resumeCommand } from '../batch-help';
import { lastOf, quoted, sayConfirmation, type Say } from '../batch-report';
import { followRun } from '../batch-run';
import { plural } from '../batch-words';
import { addConnectionOptions, addRetryForOption, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';
import type { CliIo } from '../io';
import { noteLiveData } from '../live-data';
import { parseWholeNumber } from '../parse';
import { assertJobId, assertSameConnection, findJob, jobConfirmation, openForResume } from './batch-jobs';

interface RetryFlags extends ConnectionOptions {
  /** False with --no-check. */
  check: boolean;
  concurrency: string;
  yes?: string;
  json?: boolean;
}

/** Gone uids named after the check (all are counted, and recorded). */
const GONE_SHOWN = 20;

/** `batch retry JOB`: a finished job's failed items sent again, as new attempts of the same job. */
export function withBatchRetryCommand(batch: Command, context: CliContext): Command {
  addRetryForOption(addConnectionOptions(
    batch
      .command('retry <job>')
      .description('send the failed items of a finished job again, as new attempts of the same job (its results file, its counts); first each failed uid is looked up on the service, and only those still there are sent')
      .option('--no-check', 'do not look the failed uids up first: send every failed item again')
      .option('--concurrency <n>', `requests at once (1-${MAX_BATCH_CONCURRENCY})`, String(DEFAULT_BATCH_CONCURRENCY))
      .option('--yes <phrase>', 'the typed confirmation of the count sent again, e.g. --yes "DELETE 3"')
      .option('--json', 'print only a JSON summary on stdout: { batchId, state, total, counts, resultsFile }')
      .addHelpText('after', `
Only failed items are sent again, never done or not-found ones; a job with
unfinished items is finished first ("privacy-desk batch resume JOB"). The
check reads every page of users (nothing is changed): a failed uid no longer
on the service is recorded without sending — "done before an interruption"
when an earlier attempt got no clear answer, else "not found". Confirm by
typing the operation and the count sent again (e.g. DELETE 3), or with --yes.
A job run with --base-url and --app needs them (and the keys in the
environment) again. If the retry is interrupted, "batch resume" finishes it.
${BATCH_EXIT_CODES_HELP}`),
  )).action((jobId: string, opts: RetryFlags) => retryFailed(context, jobId, opts));
  return batch;
}

async function retryFailed(context: CliContext, jobId: string, opts: RetryFlags): Promise<void> {
  const { io, out } = context;
  const concurrency = parseWholeNumber(opts.concurrency, '--concurrency', { max: MAX_BATCH_CONCURRENCY });
  assertJobId(jobId);
  const { desk, connection } = await openForResume(opts, io.env);
  const batch = desk.batch;
  const job = await findJob(batch, jobId);
  const say: Say = opts.json ? out.note : out.line;
  const profile = { id: job.profileId, baseUrl: job.baseUrl, applicationName: connection?.applicationName ?? '' };
  const resumeHint = resumeCommand(job.batchId, profile);
  if (isBeingRun(job.state)) throw invalidInput(`Batch ${job.batchId} is ${job.state} in another process right now: send its failed items again once that run has ended. Nothing was sent.`);
  if (job.state === 'unfinished') {
    throw invalidInput(`Batch ${job.batchId} has ${plural(job.counts.unfinished, 'unfinished item')}: finish it first (${resumeHint}), then send its failed items again. Nothing was sent.`);
  }
  if (job.counts.failed === 0) {
    // Nothing to do is not an error, as for a finished job given to resume.
    say(`Batch ${job.batchId} has no failed items: nothing to send again ("privacy-desk batch results ${job.batchId}" shows its results).`);
    if (opts.json) out.json({ batchId: job.batchId, state: 'nothing-to-retry', total: job.total, counts: job.counts, resultsFile: null });
    return;
  }
  assertSameConnection(job, connection, 'retry');
  // Keys missing or refused are said before the check and what is about to happen, not after.
  await batch.checkConnection(job.profileId, { token: true });

  noteLiveData(out, job.baseUrl);
  const check = opts.check ? await checkOnService(batch, io, job.batchId) : undefined;
  if (check) sayRetryCheck(say, check);
  else say(`Not looked up (--no-check): every failed item is sent again (${plural(job.counts.failed, 'item')}).`);
  const toSend = check ? check.toSend : job.counts.failed;
  const ends = check ? { first: check.firstUids, last: check.lastUids } : await failedEnds(batch, job.batchId);
  sayConfirmation(say, {
    ...jobConfirmation(job),
    count: toSend,
    firstUids: ends.first,
    lastUids: ends.last,
    retryOf: { batchId: job.batchId, total: job.total, counts: job.counts, checked: check !== undefined },
  });
  let confirmation = '';
  if (toSend > 0) {
    const hint = `${resumeHint.replace(/^privacy-desk batch resume /, 'privacy-desk batch retry ')}${opts.check ? '' : ' --no-check'}`;
    confirmation = await obtainConfirmation({ action: job.action, count: toSend, yes: opts.yes, stdinIsInput: false, commandHint: hint }, io);
  } else {
    say('Nothing to send: no failed uid is on the service any more. Their outcomes are recorded as the check found them.');
  }
  context.exitCode = await followRun(
    context,
    { batch, dataDir: desk.dataDir, json: opts.json === true, resumeCommand: () => resumeHint, toSend, unrecordedEntries: () => desk.pendingAuditEntries() },
    (control) => batch.retry(job.batchId, { concurrency, confirmation, ...(check ? { checkId: check.checkId } : {}) }, control),
  );
}

async function checkOnService(batch: DeskBatch, io: CliIo, batchId: string): Promise<BatchRetryCheck> {
  const progress = io.stderr.isTTY === true;
  const result = await batch.checkFailed(batchId, {
    onProgress: progress ? ({ page, collected, totalPages }) => io.stderr.write(`\rchecking the failed uids: page ${page}${totalPages ? ` of ${totalPages}` : ''}, ${collected} users read`) : undefined,
  });
  // The progress line is cleared (the counts follow in words).
  if (progress) io.stderr.write('\r\u001b[2K');
  return result;
}

/** Which failed uids are still on the service: those are sent; the others are named and recorded without sending. */
function sayRetryCheck(say: Say, check: BatchRetryCheck): void {
  const { gone } = check;
  say(`Checked against the service (${plural(check.users, 'user')} read): ${check.toSend} of ${plural(check.failed, 'failed uid')} ${check.toSend === 1 ? 'is' : 'are'} still there and sent again; ${gone.count} ${gone.count === 1 ? 'is' : 'are'} not.`);
  if (gone.count === 0) return;
  const how = [gone.doneBeforeInterruption > 0 ? `${gone.doneBeforeInterruption} done before an interruption (an earlier attempt got no clear answer)` : '', gone.notFound > 0 ? `${gone.notFound} not found` : ''].filter(Boolean).join(', ');
  say(`  No longer on the service (recorded without sending: ${how}):`);
  const shown = gone.sample.slice(0, GONE_SHOWN);
  for (const uid of shown) say(`    ${quoted(uid)}`);
  if (gone.count > shown.length) say(`    and ${gone.count - shown.length} more`);
}

/** The first and last few failed uids, streamed (a job may have 100,000 items). */
async function failedEnds(batch: DeskBatch, batchId: BatchJobSummary['batchId']): Promise<{ first: string[]; last: string[] }> {
  const first: string[] = [];
  const last: string[] = [];
  for await (const row of batch.results(batchId)) {
    if (row.outcome !== 'failed') continue;
    if (first.length < PREVIEW_ENDS) first.push(row.uid);
    else lastOf(last, row.uid, PREVIEW_ENDS);
  }
  return { first, last };
}
