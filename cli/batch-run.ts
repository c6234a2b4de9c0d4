import type { BatchRun, BatchRunControl, DeskBatch } from '../core/batch/batch-types';
import { writeResultsFile } from '../core/batch/results';
import type { AuditEntry } from '../shared/audit';
import type { BatchCounts, BatchProgress, BatchResultRow } from '../shared/batch';
import { toErrorInfo } from '../shared/errors';
import { createBatchProgress, type BatchProgressView } from './batch-progress';
import { quoted, type Say } from './batch-report';
import { allSettledWell, doneCount, plural } from './batch-words';
import type { CliContext } from './context';
import { visibleText } from './visible-text';
import { EXIT_FAILED, EXIT_OK, EXIT_OUTCOME_NOT_RECORDED, reportFailure } from './exit-codes';

/** Failed items named at the end (all of them are in the results). */
const FAILED_SHOWN = 10;

export interface FollowOptions {
  batch: DeskBatch;
  dataDir: string;
  json: boolean;
  /** The command that finishes the job, e.g. `privacy-desk batch resume 20261122-…` (with the connection options it needs). */
  resumeCommand: (batchId: string) => string;
  /** Items this run sends (a resume: the unfinished ones); default the job's total. */
  toSend?: number;
  /** Entries the audit trail could not take (a full disk) and keeps in memory: lost when the command ends. */
  unrecordedEntries?: () => readonly AuditEntry[];
}

/** What --json prints at the end, and nothing else. */
export interface BatchRunSummary {
  batchId: string;
  /** finished, cancelled (Ctrl-C), or stopped (an error ended the run; see `error`). */
  state: 'finished' | 'cancelled' | 'stopped';
  total: number;
  counts: BatchCounts;
  resultsFile: string | null;
  error?: ReturnType<typeof toErrorInfo>;
}

/**
 * Steps 5 and 6: runs the job with a progress bar on a terminal, Ctrl-C as cancel (the items in
 * flight finish, nothing more is sent; a second Ctrl-C ends the process), then the counts, the
 * results file and how to go on. Returns the exit code.
 */
export async function followRun(context: CliContext, options: FollowOptions, begin: (control: BatchRunControl) => Promise<BatchRun>): Promise<number> {
  const { io, out } = context;
  const cancel = new AbortController();
  // The bar appears once the run is announced (progress may come before start() returns).
  let view: BatchProgressView | undefined;
  let announced = false;
  let pending: BatchProgress | undefined;
  const onProgress = (progress: BatchProgress) => {
    if (!announced) {
      pending = progress;
      return;
    }
    if (view) view.update(progress);
    else view = createBatchProgress(io.stderr, progress);
  };
  let stopListening = () => {};
  stopListening =
    io.onInterrupt?.(() => {
      // Once: the next Ctrl-C ends the process (the items in flight are then re-checked on resume).
      stopListening();
      cancel.abort();
      const say = () => out.note('Cancelling: the items in flight finish, nothing more is sent. Ctrl-C again to stop at once (those items are then re-checked on resume).');
      if (view) view.interject(say);
      else say();
    }) ?? stopListening;

  let run: BatchRun;
  try {
    run = await begin({ signal: cancel.signal, onProgress });
  } catch (error) {
    stopListening();
    throw error;
  }
  out.note(`Batch ${run.batchId}: ${plural(options.toSend ?? run.total, 'item')} to go.${io.onInterrupt ? ' Ctrl-C cancels (the items in flight finish).' : ''}`);
  announced = true;
  if (pending) onProgress(pending);

  let summary: BatchRunSummary;
  let stoppedBy: unknown;
  try {
    const result = await run.finished;
    summary = { batchId: result.batchId, state: result.state, total: result.total, counts: result.counts, resultsFile: null };
  } catch (error) {
    stoppedBy = error;
    const job = (await options.batch.list()).find((candidate) => candidate.batchId === run.batchId);
    summary = { batchId: run.batchId, state: 'stopped', total: run.total, counts: job?.counts ?? unknownCounts(run.total), resultsFile: null, error: toErrorInfo(error) };
  } finally {
    view?.stop();
    stopListening();
  }

  summary.resultsFile = await resultsFileOrWarning(context, options, summary.batchId);
  let exitCode = summary.state === 'finished' && allSettledWell(summary.counts) ? EXIT_OK : EXIT_FAILED;
  if (stoppedBy !== undefined) {
    out.note('The run stopped:');
    // The error's own exit code: 3 when an item's outcome is unknown, 4 when an outcome could not be audited.
    exitCode = reportFailure(stoppedBy, out, { act: true, json: false });
  }
  const unrecorded = unrecordedWords(options.unrecordedEntries?.() ?? [], summary.batchId);
  if (unrecorded) {
    out.note(unrecorded);
    exitCode = EXIT_OUTCOME_NOT_RECORDED;
  }
  if (options.json) out.json(summary);
  else await saySummary(out.line, summary, options);
  if (summary.counts.unfinished > 0) out.note(`${plural(summary.counts.unfinished, 'item')} not finished: run ${options.resumeCommand(summary.batchId)} to finish them (nothing recorded done is sent again).`);
  return exitCode;
}

/**
 * What the audit trail lacks when the command ends (a full disk): outcomes of items already sent, which the
 * job's journal and results keep, and the run's summary. Undefined when it lacks nothing.
 */
function unrecordedWords(entries: readonly AuditEntry[], batchId: string): string | undefined {
  const outcomes = entries.filter((entry) => entry.outcome !== 'attempted' && entry.outcome !== 'summary').length;
  const summary = entries.some((entry) => entry.outcome === 'summary');
  if (outcomes === 0 && !summary) return undefined;
  const lost = 'and this command ends now, so they are not written later';
  if (outcomes === 0) return `The run’s summary could not be written to the audit trail, ${lost.replace('they are', 'it is')}; the job’s own files keep its counts (privacy-desk batch list).`;
  const one = outcomes === 1;
  return (
    `${one ? '1 outcome of an item' : `${outcomes} outcomes of items`} already sent${summary ? ', and the run’s summary,' : ''} could not be written to the audit trail: the job’s journal and results have ${one && !summary ? 'it' : 'them'}, the audit trail does not, ${one && !summary ? lost.replace('they are', 'it is') : lost}. ` +
    `Note ${one ? 'that outcome' : 'those outcomes'} by hand from the results (privacy-desk batch results ${batchId}); "privacy-desk audit list" shows ${one ? 'that item' : 'those items'} as "outcome not recorded".`
  );
}

function unknownCounts(total: number): BatchCounts {
  return { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: total };
}

async function resultsFileOrWarning(context: CliContext, options: FollowOptions, batchId: string): Promise<string | null> {
  try {
    // The desk's batch knows where the job is kept (the data folder, or the team database: then the file goes beside it here).
    return await (options.batch.writeResultsFile ? options.batch.writeResultsFile(batchId, 'csv') : writeResultsFile(options.dataDir, batchId, 'csv'));
  } catch (error) {
    const info = toErrorInfo(error);
    context.out.note(`Warning: the results file could not be written (${info.code}: ${info.message}); "privacy-desk batch results ${batchId}" prints them.`);
    return null;
  }
}

const STATE_WORDS: Record<BatchRunSummary['state'], string> = {
  finished: 'finished',
  cancelled: 'cancelled (Ctrl-C): the items in flight finished, nothing more was sent',
  stopped: 'stopped by an error (above)',
};

async function saySummary(say: Say, summary: BatchRunSummary, options: FollowOptions): Promise<void> {
  const { counts } = summary;
  say(`Batch ${summary.batchId}: ${STATE_WORDS[summary.state]}.`);
  say(`  done:          ${doneCount(counts)}${counts.doneBeforeInterruption > 0 ? ` (${counts.doneBeforeInterruption} of them done before an interruption: 404 on retry)` : ''}`);
  say(`  not found:     ${counts.notFound} (already erased, or never existed)`);
  say(`  failed:        ${counts.failed}`);
  say(`  unfinished:    ${counts.unfinished}`);
  say(`  total:         ${summary.total}`);
  if (summary.resultsFile) say(`Results (one row per item): ${summary.resultsFile}`);
  if (counts.failed === 0) return;
  const failed = await firstFailed(options.batch, summary.batchId);
  say(`Failed items${counts.failed > failed.length ? ` (the first ${failed.length})` : ''}:`);
  for (const row of failed) {
    const pasted = row.pastedUid !== undefined ? ` (pasted ${quoted(row.pastedUid)})` : '';
    say(`  line ${row.line}: ${quoted(row.uid)}${pasted} — ${row.reason !== undefined ? visibleText(row.reason) : 'no reason recorded'}`);
  }
  say(`Every failed item and its reason: privacy-desk batch results ${summary.batchId} (outcome "failed").`);
}

async function firstFailed(batch: DeskBatch, batchId: string): Promise<BatchResultRow[]> {
  const failed: BatchResultRow[] = [];
  for await (const row of batch.results(batchId)) {
    if (row.outcome !== 'failed') continue;
    failed.push(row);
    if (failed.length >= FAILED_SHOWN) break;
  }
  return failed;
}
