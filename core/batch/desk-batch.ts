import { PrivacyDeskError, invalidInput } from '../../shared/errors';
import { batchConfirmationPhrase, jobStateOfRun, matchesBatchConfirmation, MAX_BATCH_CONCURRENCY, type BatchCounts, type BatchJobDamage, type BatchJobLive, type BatchJobSummary, type BatchProgress } from '../../shared/batch';
import type { Profile } from '../../shared/profile';
import { referenceProblem } from '../../shared/reference';
import type { UserRecord } from '../../shared/users';
import type { GatedConnection } from '../service/erasure-gate';
import { referenceProblemText } from '../input-problems';
import type { BatchRun, BatchRunControl, BatchStartRequest, DeskBatch, WalkControl } from './batch-types';
import { checkDraft } from './check-draft';
import { createDraft, readDraft, readDraftItems, readMissing, readTrimmable, removeDraft } from './drafts';
import { trimmedUid } from './likely-mistakes';
import type { BatchItem, StoredPlan } from './job-files';
import { openFileBatchJobs, type BatchJobStore } from './batch-job-store';
import type { Journal } from './journal';
import type { JobDamage, JobSummary } from './job-list';
import type { ItemState, JobState } from './job-state';
import { writeResultsFile } from './results';
import { createFailedRetries } from './retry-failed';
import { runBatch, type RunItem } from './run-batch';
import { msg } from '../../shared/messages';

export interface DeskBatchDeps {
  dataDir: string;
  /** Where jobs are kept (default: the data folder's files); drafts stay in the data folder whatever it is. */
  jobs?: BatchJobStore;
  getProfile(profileId: string): Promise<Profile>;
  connectionFor(profileId: string): Promise<GatedConnection>;
  walkUsers(profileId: string, walk: WalkControl): Promise<{ users: UserRecord[] }>;
  /** Called when a run ends, however it ended: users were erased, so what was read of the list is stale. */
  onRunEnded?(profileId: string): void;
  now?: () => number;
  /** Tests make backoffs and Retry-After waits instant (or move a sandbox clock). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long an item is tried before it is failed (runBatch's retryForMs). */
  retryForMs?: number;
}

const APPEND_EVERY = 1000;
/** Previews of one process kept at once (their drafts are on disk until run, discarded, or a day old). */
export const MAX_OPEN_DRAFTS = 8;

/** desk.batch (core/batch/batch-types.ts): drafts, checks, jobs and their runs. */
export function createDeskBatch(deps: DeskBatchDeps): DeskBatch {
  const { dataDir } = deps;
  const jobs = deps.jobs ?? openFileBatchJobs(dataDir);
  const now = deps.now ?? Date.now;
  /** The runs of this process: their latest report, which list() serves with the job (one truth for every screen). */
  const live = new Map<string, BatchProgress>();
  /** Increases with every report and every end of a run here: the higher of two views of a job is the newer. */
  let revision = 0;

  async function run(journal: Journal, state: JobState | null, concurrency: number, control: BatchRunControl): Promise<BatchRun> {
    const plan = journal.plan;
    const { gate } = await deps.connectionFor(plan.profileId);
    const counts = state ? countsOf(state.counts) : { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: plan.total };
    const finished = runBatch({
      journal,
      action: plan.action,
      gate: gate.openBatch({ jobId: plan.jobId, action: plan.action, logoutFirst: plan.logoutFirst, ...(plan.reference ? { reference: plan.reference } : {}) }),
      items: unfinishedItems(plan, state),
      counts,
      concurrency: Math.min(MAX_BATCH_CONCURRENCY, Math.max(1, concurrency)),
      control: {
        ...control,
        onProgress: (progress) => {
          const reported = { ...progress, revision: ++revision };
          live.set(plan.jobId, reported);
          // Paused with nothing in flight: what was done goes to the journal now, so another process reading it (the CLI's batch list) sees the same counts.
          if (progress.state === 'paused' && progress.inFlight === 0) void journal.flush().catch(() => undefined);
          control.onProgress?.(reported);
        },
      },
      now,
      ...(deps.sleep ? { sleep: deps.sleep } : {}),
      ...(deps.retryForMs !== undefined ? { retryForMs: deps.retryForMs } : {}),
    });
    const forget = () => {
      live.delete(plan.jobId);
      revision++;
      deps.onRunEnded?.(plan.profileId);
    };
    finished.then(forget, forget);
    return { batchId: plan.jobId, total: plan.total, finished };
  }

  async function* unfinishedItems(plan: StoredPlan, state: JobState | null): AsyncGenerator<RunItem> {
    for await (const item of jobs.readItems(plan.jobId)) {
      const itemState: ItemState = state ? state.stateOf(item.index) : 'never-started';
      if (!UNFINISHED.has(itemState)) continue;
      const reference = item.reference ?? plan.reference;
      yield {
        item: item.index,
        uid: item.uid,
        ...(reference ? { reference } : {}),
        recheck: itemState === 'in-flight' || itemState === 'retry-unknown',
        ...(item.missingAtCheck ? { missingAtCheck: true } : {}),
        ...(item.pastedUid !== undefined ? { pastedUid: item.pastedUid } : {}),
      };
    }
  }

  const failedRetries = createFailedRetries({ jobs, getProfile: deps.getProfile, connectionFor: deps.connectionFor, walkUsers: deps.walkUsers, run });

  /** Turns a draft into a job and runs it (start, while no discard may remove the draft). */
  async function startDraft(request: BatchStartRequest, control: BatchRunControl): Promise<BatchRun> {
    const draft = readDraft(dataDir, request.draftId);
    if (draft.items === 0) throw invalidInput(msg('batch.nothingValid'));
    if (!matchesBatchConfirmation(request.confirmation, request.action, draft.items)) {
      throw new PrivacyDeskError({
        code: 'CONFIRMATION_MISMATCH',
        text: msg('batch.phraseMismatch', { phrase: batchConfirmationPhrase(request.action, draft.items) }),
      });
    }
    const trimmable = request.useTrimmed ? readTrimmable(dataDir, request.draftId) : null;
    if (request.useTrimmed && trimmable === null) {
      throw invalidInput(msg('batch.trimNeedsCheck'));
    }
    const profile = await deps.getProfile(request.profileId);
    // Credentials are checked (a token is had) before the job exists: a job that cannot run is not left behind.
    await (await deps.connectionFor(profile.id)).client.checkToken('authentication');
    const referenceIssue = referenceProblem(request.reference);
    if (referenceIssue) throw invalidInput(msg('input.nothingSent', { problem: referenceProblemText(referenceIssue) }));
    const reference = request.reference?.trim();
    const journal = await jobs.createJob({
      action: request.action,
      profileId: profile.id,
      profileName: profile.name,
      baseUrl: profile.baseUrl,
      ...(reference ? { reference } : {}),
      logoutFirst: request.logoutFirst,
      total: draft.items,
      source: draft.sourceName,
      ...(trimmable && trimmable.size > 0 ? { trimmedByChoice: trimmable.size } : {}),
    });
    try {
      const missingAtCheck = readMissing(dataDir, request.draftId);
      let chunk: BatchItem[] = [];
      for await (const item of readDraftItems(dataDir, request.draftId)) {
        // The operator's choice: the trimmed form is sent, and the pasted uid stays on record with the item.
        if (trimmable?.has(item.uid)) chunk.push({ ...item, uid: trimmedUid(item.uid), pastedUid: item.uid });
        else chunk.push(missingAtCheck.has(item.uid) ? { ...item, missingAtCheck: true } : item);
        if (chunk.length >= APPEND_EVERY) {
          await journal.appendItems(chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) await journal.appendItems(chunk);
      await journal.finishItems();
    } catch (error) {
      await journal.close().catch(() => undefined);
      throw error;
    }
    removeDraft(dataDir, request.draftId);
    return run(journal, null, request.concurrency, control);
  }

  /**
   * Drafts this process previewed and has neither run nor discarded, oldest first. A window makes a new one each
   * time the operator changes the list: beyond MAX_OPEN_DRAFTS the oldest go, so previews cannot fill the disk;
   * discard() and discardOpenDrafts() remove them sooner (a preview replaced or abandoned, the app closing).
   */
  const openDrafts: string[] = [];
  /** Drafts being turned into jobs: never removed under start's feet. */
  const starting = new Set<string>();
  const forget = (draftId: string) => {
    const at = openDrafts.indexOf(draftId);
    if (at !== -1) openDrafts.splice(at, 1);
  };
  async function whileStarting<T>(draftId: string, work: () => Promise<T>): Promise<T> {
    starting.add(draftId);
    try {
      const started = await work();
      // Run: its draft is gone. Refused (a wrong phrase…): it stays open, to be started again or discarded.
      forget(draftId);
      return started;
    } finally {
      starting.delete(draftId);
    }
  }

  return {
    async preview(request) {
      const preview = await createDraft(dataDir, request, now);
      openDrafts.push(preview.draftId);
      while (openDrafts.length > MAX_OPEN_DRAFTS) {
        const oldest = openDrafts.shift() as string;
        if (!starting.has(oldest)) removeDraft(dataDir, oldest);
      }
      return preview;
    },

    async discard(draftId) {
      if (starting.has(draftId)) return false;
      forget(draftId);
      return removeDraft(dataDir, draftId);
    },

    discardOpenDrafts() {
      for (const draftId of openDrafts.splice(0)) if (!starting.has(draftId)) removeDraft(dataDir, draftId);
    },

    async checkConnection(profileId, { token = false } = {}) {
      const connection = await deps.connectionFor(profileId);
      if (token) await connection.client.checkToken('authentication');
    },

    async check({ draftId, profileId }, walk = {}) {
      const draft = readDraft(dataDir, draftId);
      const { users } = await deps.walkUsers(profileId, walk);
      // Which uids exist, and the likely mistakes among the others (core/batch/likely-mistakes.ts).
      return checkDraft(dataDir, draft, users);
    },

    start: (request, control = {}) => whileStarting(request.draftId, () => startDraft(request, control)),

    async resume(batchId, { concurrency, confirmation }, control = {}) {
      const before = await jobs.readJobState(batchId);
      // A damaged journal says so before any phrase is asked for: it cannot be resumed whatever is typed.
      if (before.corruptLines.length > 0) throw jobs.journalDamage(batchId, before.corruptLines);
      if (!before.itemsComplete) {
        throw invalidInput(msg('batch.notRecorded', { job: batchId }));
      }
      if (before.unfinished === 0) throw invalidInput(msg('batch.finished', { job: batchId }));
      if (!matchesBatchConfirmation(confirmation, before.plan.action, before.unfinished)) {
        throw new PrivacyDeskError({
          code: 'CONFIRMATION_MISMATCH',
          text: msg('batch.resumePhraseMismatch', { phrase: batchConfirmationPhrase(before.plan.action, before.unfinished) }),
        });
      }
      const profile = await deps.getProfile(before.plan.profileId);
      if (profile.baseUrl !== before.plan.baseUrl) {
        throw invalidInput(msg('batch.otherAddress', { job: batchId, confirmed: before.plan.baseUrl, profile: profile.name, now: profile.baseUrl }));
      }
      await deps.connectionFor(profile.id);
      const journal = await jobs.resumeJob(batchId);
      try {
        return await run(journal, await jobs.readJobState(batchId), concurrency, control);
      } catch (error) {
        await journal.close().catch(() => undefined);
        throw error;
      }
    },

    checkFailed: (batchId, walk) => failedRetries.check(batchId, walk),
    retry: (batchId, options, control) => failedRetries.retry(batchId, options, control),

    listAll: async () => {
      const at = revision;
      const { jobs: found, damaged } = await jobs.listJobs();
      return { jobs: found.map((job) => summaryOf(job, live.get(job.jobId), at)), damaged: damaged.map(damagedOf) };
    },
    list: async () => {
      const at = revision;
      return (await jobs.listJobs()).jobs.map((job) => summaryOf(job, live.get(job.jobId), at));
    },
    mostRecentUnfinished: async () => {
      const at = revision;
      const job = (await jobs.listJobs()).jobs.find((candidate) => candidate.state === 'unfinished' && !live.has(candidate.jobId));
      return job ? summaryOf(job, undefined, at) : null;
    },
    results: (batchId) => jobs.readResults(batchId),
    exportResults: (batchId, format) => jobs.exportResults(batchId, format),
    writeResultsFile: (batchId, format) => writeResultsFile(dataDir, batchId, format, { jobs }),
  };
}

const UNFINISHED: ReadonlySet<ItemState> = new Set(['never-started', 'in-flight', 'retry-not-sent', 'retry-unknown']);

function countsOf(counts: Record<ItemState, number>): BatchCounts {
  return {
    done: counts.done,
    doneBeforeInterruption: counts['done-before-interruption'],
    notFound: counts['not-found'],
    failed: counts.failed,
    unfinished: counts['never-started'] + counts['in-flight'] + counts['retry-not-sent'] + counts['retry-unknown'],
  };
}

/** A job as every screen shows it: while this process runs it, its run's latest report (state, counts, figures) wins over the journal, which lags behind. */
function summaryOf(job: JobSummary, progress: BatchProgress | undefined, at: number): BatchJobSummary {
  const { plan } = job;
  const summary: BatchJobSummary = {
    batchId: job.jobId,
    action: plan.action,
    profileId: plan.profileId,
    profileName: plan.profileName,
    baseUrl: plan.baseUrl,
    logoutFirst: plan.logoutFirst,
    source: plan.source,
    createdAt: plan.createdAt,
    total: plan.total,
    state: progress ? jobStateOfRun(progress.state) : job.state,
    counts: progress ? { ...progress.counts } : countsOf(job.counts),
    revision: Math.max(at, progress?.revision ?? 0),
  };
  if (plan.reference) summary.reference = plan.reference;
  if (job.holder) summary.holder = job.holder;
  if (progress) summary.live = liveOf(progress);
  return summary;
}

function damagedOf(job: JobDamage): BatchJobDamage {
  const { jobId, plan, ...rest } = job;
  const damaged: BatchJobDamage = { batchId: jobId, ...rest };
  if (plan) {
    damaged.plan = { action: plan.action, profileName: plan.profileName, baseUrl: plan.baseUrl, total: plan.total, source: plan.source };
    if (plan.reference !== undefined) damaged.plan.reference = plan.reference;
  }
  return damaged;
}

function liveOf(progress: BatchProgress): BatchJobLive {
  const live: BatchJobLive = { state: progress.state, inFlight: progress.inFlight, ratePerSecond: progress.ratePerSecond };
  if (progress.secondsLeft !== undefined) live.secondsLeft = progress.secondsLeft;
  if (progress.waitSeconds !== undefined) live.waitSeconds = progress.waitSeconds;
  if (progress.pausedSince !== undefined) live.pausedSince = progress.pausedSince;
  return live;
}
