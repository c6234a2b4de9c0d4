import { Command, Option } from 'commander';
import type { DeskBatch } from '../../core/batch/batch-types';
import { TEMPORARY_PROFILE_ID, type Desk } from '../../core/desk';
import { batchIdSchema, DEFAULT_BATCH_CONCURRENCY, isBeingRun, MAX_BATCH_CONCURRENCY, PREVIEW_ENDS, type BatchJobSummary } from '../../shared/batch';
import { invalidInput, PrivacyDeskError } from '../../shared/errors';
import { obtainConfirmation } from '../batch-confirm';
import { BATCH_EXIT_CODES_HELP, resumeCommand, shellArgument } from '../batch-help';
import { beingRunRefusal, holderJson } from '../batch-holder';
import { lastOf, quoted, sayConfirmation, sayTrimmedByChoice, type Say } from '../batch-report';
import { jobListJson, sayJobList } from '../batch-list';
import { followRun } from '../batch-run';
import { plural } from '../batch-words';
import { addConnectionOptions, addRetryForOption, openDesk, parseRetryForMs, parseTimeoutMs, resolveConnection, type ConnectionOptions } from '../connection';
import type { CliContext } from '../context';
import { noteLiveData } from '../live-data';
import { parseWholeNumber } from '../parse';
import { visibleJson, visibleLines } from '../visible-text';

/** `batch list`, `batch resume [JOB]`, `batch results JOB`: the jobs in the data folder. */
export function withBatchJobCommands(batch: Command, context: CliContext): Command {
  const { io, out } = context;

  batch
    .command('list')
    .description('the batch jobs in the data folder, newest first, with their state and counts (a damaged job too, with what is wrong and what to do)')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { json?: boolean }) => {
      const list = await (await openDesk({ keychain: false }, io.env)).batch.listAll();
      if (opts.json) return out.json(jobListJson(list));
      sayJobList(out.line, list);
    });

  addRetryForOption(addConnectionOptions(
    batch
      .command('resume [job]')
      .description('finish an unfinished job (after Ctrl-C, a crash or a kill): only its unfinished items are sent; without JOB, the most recent unfinished one')
      .option('--concurrency <n>', `requests at once (1-${MAX_BATCH_CONCURRENCY})`, String(DEFAULT_BATCH_CONCURRENCY))
      .option('--yes <phrase>', 'the typed confirmation of the unfinished count, e.g. --yes "DELETE 120"')
      .option('--json', 'print only a JSON summary on stdout: { batchId, state, total, counts, resultsFile }')
      .addHelpText('after', `
A job run with --base-url and --app needs them (and the keys in the environment)
again; a job run with a saved profile uses that profile. With no unfinished job
it says so (naming the process that runs any other job: pid, computer, since
when, its lock) and exits 0. A job whose process was killed or crashed on this
computer is unfinished at once: resume it right away.
${BATCH_EXIT_CODES_HELP}`),
  )).action(async (jobId: string | undefined, opts: ConnectionOptions & { concurrency: string; yes?: string; json?: boolean }) => {
    const concurrency = parseWholeNumber(opts.concurrency, '--concurrency', { max: MAX_BATCH_CONCURRENCY });
    if (jobId !== undefined) assertJobId(jobId);
    const { desk, connection } = await openForResume(opts, io.env);
    const batch = desk.batch;
    const job = jobId !== undefined ? await findJob(batch, jobId) : await batch.mostRecentUnfinished();
    const say: Say = opts.json ? out.note : out.line;
    if (!job) {
      // Nothing to do is not an error: a script may run this after every crash. A job another process runs is no
      // unfinished job, but it is said, with who runs it (a killed holder's job is unfinished at once: job-list.ts).
      const beingRun = (await batch.list()).filter((candidate) => isBeingRun(candidate.state) && candidate.counts.unfinished > 0);
      if (beingRun.length === 0) say('No unfinished batch job: nothing to resume ("privacy-desk batch list" shows the jobs).');
      for (const other of beingRun) say(`Nothing to resume here. ${beingRunRefusal(other).message}`);
      if (opts.json) out.json({ batchId: null, state: 'nothing-to-resume', ...(beingRun.length > 0 ? { beingRun: beingRun.map(holderJson) } : {}) });
      return;
    }
    if (isBeingRun(job.state)) throw beingRunRefusal(job);
    if (job.state === 'finished' || job.counts.unfinished === 0) {
      say(`Batch ${job.batchId} is finished: every item has its outcome, nothing to resume ("privacy-desk batch results ${job.batchId}" shows them).`);
      if (opts.json) out.json({ batchId: job.batchId, state: 'finished', total: job.total, counts: job.counts, resultsFile: null });
      return;
    }
    assertSameConnection(job, connection);
    // Keys missing or refused are said before what is about to happen, not after it.
    await batch.checkConnection(job.profileId, { token: true });

    noteLiveData(out, job.baseUrl);
    const ends = await unfinishedEnds(batch, job.batchId);
    sayConfirmation(say, {
      ...jobConfirmation(job),
      count: job.counts.unfinished,
      firstUids: ends.first,
      lastUids: ends.last,
      resumeOf: { batchId: job.batchId, total: job.total, counts: job.counts },
    });
    const hint = resumeCommand(job.batchId, { id: job.profileId, baseUrl: job.baseUrl, applicationName: connection?.applicationName ?? '' });
    const confirmation = await obtainConfirmation({ action: job.action, count: job.counts.unfinished, yes: opts.yes, stdinIsInput: false, commandHint: hint }, io);
    context.exitCode = await followRun(context, { batch, dataDir: desk.dataDir, json: opts.json === true, resumeCommand: () => hint, toSend: job.counts.unfinished, unrecordedEntries: () => desk.pendingAuditEntries() }, (control) =>
      batch.resume(job.batchId, { concurrency, confirmation }, control),
    );
  });

  batch
    .command('results <job>')
    .description('print one row per item on stdout: line, uid, reference, outcome, status, request id, reason, time, and the uid as pasted when it was sent trimmed')
    .addOption(new Option('--format <format>', 'csv or json').choices(['csv', 'json']).default('csv'))
    .action(async (jobId: string, opts: { format: 'csv' | 'json' }) => {
      assertJobId(jobId);
      const { batch } = await openDesk({ keychain: false }, io.env);
      const exported = await batch.exportResults(jobId, opts.format);
      // Results of a job that a process runs now are as far as its journal goes: said, in the words batch list uses.
      const job = (await batch.list()).find((candidate) => candidate.batchId === jobId);
      if (job && isBeingRun(job.state)) out.note(`Batch ${jobId} is ${job.state} in another process: these results are as its journal records them now (${plural(job.counts.unfinished, 'item')} unfinished).`);
      // Uids and reasons may hold bidi controls: shown as escapes, as everywhere (the CSV keeps its line ends).
      io.stdout.write(opts.format === 'json' ? visibleJson(exported.content) : visibleCsv(exported.content));
      await sayTrimmedByChoice(out.note, batch.results(jobId));
    });

  return batch;
}

/** What a confirmation says of a job being run again (resume, retry): where, what, the job's own reference. */
export function jobConfirmation(job: BatchJobSummary) {
  return {
    profileName: job.profileName,
    baseUrl: job.baseUrl,
    action: job.action,
    logoutFirst: job.logoutFirst,
    ...(job.reference !== undefined ? { reference: job.reference } : {}),
    withReference: 0,
  };
}

export function assertJobId(jobId: string): void {
  if (!batchIdSchema.safeParse(jobId).success) throw invalidInput(`"${jobId}" is not a batch job id (they look like 20261122-200102-a1b2c3): "privacy-desk batch list" shows them.`);
}

export async function findJob(batch: DeskBatch, jobId: string): Promise<BatchJobSummary> {
  const { jobs, damaged } = await batch.listAll();
  const job = jobs.find((candidate) => candidate.batchId === jobId);
  if (job) return job;
  // A damaged job is never resumed: what is wrong, and what to do instead.
  const damage = damaged.find((candidate) => candidate.batchId === jobId);
  if (damage) throw new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: damage.text, ...(damage.quote ? { quote: damage.quote } : {}) });
  throw invalidInput(`No batch job ${jobId} in this data folder: "privacy-desk batch list" shows them.`);
}

/** A job's connection: its saved profile (read from the job), or --base-url/--app given again. */
export async function openForResume(opts: ConnectionOptions, env: NodeJS.ProcessEnv): Promise<{ desk: Desk; connection?: { profileId: string; baseUrl: string; applicationName: string } }> {
  if (opts.baseUrl === undefined && opts.app === undefined && opts.profile === undefined) {
    const batchRetryForMs = parseRetryForMs(opts.retryFor);
    return { desk: await openDesk({ keychain: true, timeoutMs: parseTimeoutMs(opts.timeout), ...(batchRetryForMs !== undefined ? { batchRetryForMs } : {}) }, env) };
  }
  const { desk, profileId } = await resolveConnection(opts, env);
  const profile = await desk.getProfile(profileId);
  return { desk, connection: { profileId, baseUrl: profile.baseUrl, applicationName: profile.applicationName } };
}

/** Never finish a job against another service than the one it was confirmed for. */
export function assertSameConnection(job: BatchJobSummary, connection: { profileId: string; baseUrl: string } | undefined, command: 'resume' | 'retry' = 'resume'): void {
  if (job.profileId === TEMPORARY_PROFILE_ID) {
    if (!connection || connection.profileId !== TEMPORARY_PROFILE_ID) {
      throw invalidInput(`Batch ${job.batchId} ran with --base-url and --app: give them again (--base-url ${shellArgument(job.baseUrl)} --app NAME, with the keys in the environment). Nothing was sent.`);
    }
    if (connection.baseUrl !== job.baseUrl) throw invalidInput(`Batch ${job.batchId} was confirmed for ${job.baseUrl}, not ${connection.baseUrl}. Nothing was sent.`);
    return;
  }
  if (connection && connection.profileId !== job.profileId) {
    throw invalidInput(`Batch ${job.batchId} belongs to the profile ${quoted(job.profileName)}: run "privacy-desk batch ${command} ${job.batchId}" without connection options. Nothing was sent.`);
  }
}

/** The first and last few unfinished uids, streamed (a job may have 100,000 items). */
async function unfinishedEnds(batch: DeskBatch, batchId: string): Promise<{ first: string[]; last: string[] }> {
  const first: string[] = [];
  const last: string[] = [];
  let count = 0;
  for await (const row of batch.results(batchId)) {
    if (row.outcome !== 'unfinished') continue;
    count += 1;
    if (first.length < PREVIEW_ENDS) first.push(row.uid);
    else lastOf(last, row.uid, PREVIEW_ENDS);
  }
  return { first, last: count > PREVIEW_ENDS ? last : [] };
}

/** CSV for a terminal: control and bidi characters shown as escapes, CRLF or LF line ends kept. */
function visibleCsv(content: string): string {
  return content
    .split('\n')
    .map((line) => (line.endsWith('\r') ? `${visibleLines(line.slice(0, -1))}\r` : visibleLines(line)))
    .join('\n');
}
