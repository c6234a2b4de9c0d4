/**
 * The jobs in the data folder as every screen lists them (desk.batch.list, the CLI's `batch list`): each
 * with its state and counts, from its journal and its run lock. A job whose files cannot be used is listed
 * as damaged — which file, which line, why — rather than left out: it never disappears without a word, and
 * it is never offered for resuming.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { BATCH_JOB_FILES, type BatchJobHolder } from '../../shared/batch';
import type { Quote } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import { BatchFileError, type BatchFileDamage } from './batch-file-schemas';
import { batchesDir, JOB_ID_PATTERN, jobPaths, type StoredPlan } from './job-files';
import { journalDamage, readItems, readJobState, type ItemState } from './job-state';
import { jobRunner } from './run-lock';

/** running, paused or stopping: a process runs it now (paused by its operator: nothing is sent until resumed there; stopping: its items in flight finish); unfinished: nobody runs it, it can be resumed. */
export type JobRunState = 'running' | 'paused' | 'stopping' | 'unfinished' | 'finished';

export interface JobSummary {
  jobId: string;
  plan: StoredPlan;
  state: JobRunState;
  counts: Record<ItemState, number>;
  unfinished: number;
  /** Running, paused or stopping: the process that holds its run lock, once it has recorded itself. */
  holder?: BatchJobHolder;
}

export interface JobDamage {
  jobId: string;
  /** From the job id (UTC): the plan may be what cannot be read. */
  createdAt: string;
  file: (typeof BATCH_JOB_FILES)[number];
  path: string;
  line?: number;
  /** What is wrong, what it means and what to do. */
  text: MessageText;
  quote?: Quote;
  /** The plan, when it could be read. */
  plan?: StoredPlan;
}

export interface JobList {
  /** Newest first. */
  jobs: JobSummary[];
  damaged: JobDamage[];
}

/** Every job in the data folder, newest first, and the damaged ones. */
export async function listJobs(dataDir: string): Promise<JobList> {
  const dir = batchesDir(dataDir);
  if (!existsSync(dir)) return { jobs: [], damaged: [] };
  const jobs: JobSummary[] = [];
  const damaged: JobDamage[] = [];
  for (const jobId of readdirSync(dir).filter((name) => JOB_ID_PATTERN.test(name))) {
    let plan: StoredPlan | undefined;
    let summary: Omit<JobSummary, 'state'>;
    try {
      const state = await readJobState(dataDir, jobId);
      plan = state.plan;
      // What resume would refuse, the list says: a job is offered only when it could be resumed.
      if (state.corruptLines.length > 0) throw journalDamage(dataDir, jobId, state.corruptLines);
      await checkItems(dataDir, jobId);
      summary = { jobId, plan: state.plan, counts: state.counts, unfinished: state.unfinished };
    } catch (error) {
      if (error instanceof BatchFileError) damaged.push(damageOf(jobId, error.damage, plan));
      continue; // otherwise a job being created (no plan yet) or removed meanwhile: nothing to list
    }
    // A runner that ended without letting go (killed, crashed) runs nothing: the job is unfinished, to be resumed.
    const runner = await jobRunner(dataDir, jobId);
    if (runner.state === 'running' || runner.state === 'paused' || runner.state === 'stopping') {
      jobs.push({ ...summary, state: runner.state, ...(runner.holder ? { holder: runner.holder } : {}) });
    } else {
      jobs.push({ ...summary, state: summary.unfinished > 0 ? 'unfinished' : 'finished' });
    }
  }
  jobs.sort((a, b) => b.plan.createdAt.localeCompare(a.plan.createdAt) || b.jobId.localeCompare(a.jobId));
  damaged.sort((a, b) => b.jobId.localeCompare(a.jobId));
  return { jobs, damaged };
}

/** The newest job that is unfinished and not being run: what `batch resume` without a job id picks (never a damaged one). */
export async function mostRecentUnfinished(dataDir: string): Promise<JobSummary | null> {
  return (await listJobs(dataDir)).jobs.find((job) => job.state === 'unfinished') ?? null;
}

/**
 * Every line of items.jsonl parsed (readItems throws the damage). items.jsonl is written once, when the job
 * is created: a file found intact is not read again while its size and time stay the same, so the console's
 * list, read every few seconds while another process runs a job, does not parse 100,000 items each time.
 */
const intactItems = new Map<string, string>();
async function checkItems(dataDir: string, jobId: string): Promise<void> {
  const { items } = jobPaths(dataDir, jobId);
  let stamp: string;
  try {
    const stats = statSync(items);
    stamp = `${stats.size}:${stats.mtimeMs}`;
  } catch {
    return; // no items yet: the job is being created, or stopped before its list was recorded (nothing was sent)
  }
  if (intactItems.get(items) === stamp) return;
  for await (const _item of readItems(dataDir, jobId));
  intactItems.set(items, stamp);
}

function damageOf(jobId: string, damage: BatchFileDamage, plan: StoredPlan | undefined): JobDamage {
  const { path, line, why } = damage;
  const text = damage.unreadable
    ? msg('batch.damaged.unreadable', { path, job: jobId })
    : line !== undefined
      ? msg('batch.damaged.line', { line, path, why, job: jobId })
      : msg('batch.damaged.file', { path, why, job: jobId });
  const name = basename(path);
  const entry: JobDamage = {
    jobId,
    createdAt: createdAtOf(jobId),
    file: BATCH_JOB_FILES.find((file) => file === name) ?? 'plan.json',
    path,
    text,
  };
  if (line !== undefined) entry.line = line;
  if (damage.detail !== undefined) entry.quote = { from: 'system', text: damage.detail };
  if (plan) entry.plan = plan;
  return entry;
}

/** 20261122-190712-3fa9c1 → 2026-11-22T19:07:12Z (job ids are made from the UTC time: job-files.ts newJobId). */
function createdAtOf(jobId: string): string {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d\d)(\d\d)-(\d\d)(\d\d)(\d\d)/.exec(jobId) ?? [];
  return `${y}-${mo}-${d}T${h}:${mi}:${s}Z`;
}
