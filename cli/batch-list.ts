import type { BatchJobDamage, BatchJobList, BatchJobSummary } from '../shared/batch';
import { englishMessage } from '../shared/errors';
import { doneCount } from './batch-words';
import { holderNote } from './batch-holder';
import type { Say } from './batch-report';
import { formatTable } from './table';

type Row = { job: BatchJobSummary; damage?: undefined } | { job?: undefined; damage: BatchJobDamage };

const count = (row: Row, value: (job: BatchJobSummary) => number) => (row.job ? String(value(row.job)) : '-');

/**
 * `batch list`: every job, newest first, in one table — a damaged job too, with the state "damaged" — then
 * what each damaged job means and what to do, and how to finish an unfinished job.
 */
export function sayJobList(say: Say, { jobs, damaged }: BatchJobList): void {
  if (jobs.length === 0 && damaged.length === 0) return say('No batch jobs yet.');
  const rows: Row[] = [...jobs.map((job) => ({ job })), ...damaged.map((damage) => ({ damage }))].sort((a, b) => idOf(b).localeCompare(idOf(a)));
  say(
    formatTable(rows, [
      { title: 'JOB', value: idOf },
      { title: 'CREATED (UTC)', value: (row) => (row.job?.createdAt ?? row.damage?.createdAt ?? '').slice(0, 16).replace('T', ' ') },
      { title: 'OPERATION', value: (row) => row.job?.action ?? row.damage?.plan?.action ?? '?' },
      { title: 'PROFILE', value: (row) => row.job?.profileName ?? row.damage?.plan?.profileName ?? '?', maxWidth: 24 },
      { title: 'SOURCE', value: (row) => row.job?.source ?? row.damage?.plan?.source ?? '?', maxWidth: 32 },
      { title: 'TOTAL', value: (row) => String(row.job?.total ?? row.damage?.plan?.total ?? '?'), align: 'right' },
      { title: 'STATE', value: (row) => row.job?.state ?? 'damaged' },
      { title: 'DONE', value: (row) => count(row, (job) => doneCount(job.counts)), align: 'right' },
      { title: 'NOT FOUND', value: (row) => count(row, (job) => job.counts.notFound), align: 'right' },
      { title: 'FAILED', value: (row) => count(row, (job) => job.counts.failed), align: 'right' },
      { title: 'UNFINISHED', value: (row) => count(row, (job) => job.counts.unfinished), align: 'right' },
    ]),
  );
  for (const damage of damaged) say(`Damaged job ${damage.batchId}: ${englishMessage(damage.text, damage.quote)}`);
  for (const note of jobs.map(holderNote)) if (note) say(note);
  if (jobs.some((job) => job.state === 'paused')) say('A paused job is paused by the process that runs it (the app): it is resumed there.');
  if (jobs.some((job) => job.state === 'stopping')) say('A stopping job was cancelled by the process that runs it: its items in flight are finishing, then it is unfinished and can be resumed.');
  if (jobs.some((job) => job.state === 'unfinished')) say('Finish an unfinished job with: privacy-desk batch resume JOB');
}

/** The jobs as --json prints them: a damaged job's explanation in English beside its message id. */
export function jobListJson({ jobs, damaged }: BatchJobList) {
  return { jobs, damaged: damaged.map((damage) => ({ ...damage, message: englishMessage(damage.text, damage.quote) })) };
}

function idOf(row: Row): string {
  return row.job?.batchId ?? row.damage?.batchId ?? '';
}
