import type { BatchCheckResult, BatchJobList, BatchSeparator, BatchJobSummary, BatchPreview, BatchProgress, BatchResultRow, BatchRunResult } from '../../shared/batch';
import type { BatchRetryCheck } from '../../shared/batch-retry';
import type { ErasureAction } from '../../shared/users';
import type { ListAllProgress } from '../list-all-users';
import type { BatchInputSource } from './text-chunks';

/** What to read: the text itself (the window), or a stream (a file, standard input). */
export interface BatchPreviewRequest {
  source: BatchInputSource;
  kind?: 'auto' | 'list' | 'csv' | 'tsv';
  /** The operator's choice of separator (comma or semicolon: CSV; tab: TSV); default guessed. */
  separator?: BatchSeparator;
  uidColumn?: string | number;
  referenceColumn?: string | number;
  hasHeader?: boolean;
  sourceName: string;
  /** Invalid lines to list in the answer (all are counted); default MAX_PREVIEW_INVALID. */
  listInvalid?: number;
}

export interface BatchStartRequest {
  draftId: string;
  profileId: string;
  action: ErasureAction;
  logoutFirst: boolean;
  reference?: string;
  concurrency: number;
  /** What the operator typed; must match batchConfirmationPhrase(action, count). */
  confirmation: string;
  /** Send the trimmed form of the uids the check found with spaces at an end, not on the service, while their trimmed form is (the operator's choice, recorded). */
  useTrimmed?: boolean;
}

/** Pause and resume from outside the run; a cancel is the signal. */
export interface PauseSwitch {
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  /** Resolves at once when running, else when resumed (or when `signal` aborts). */
  whileRunning(signal?: AbortSignal): Promise<void>;
  /** Called on every change (the runner reports the new state). */
  onChange(listener: () => void): () => void;
}

export interface BatchRunControl {
  /** Cancel: the items in flight finish, nothing more is sent; the job stays resumable. */
  signal?: AbortSignal;
  pause?: PauseSwitch;
  /** Called at most a few times a second, and once at the end. */
  onProgress?: (progress: BatchProgress) => void;
}

export interface BatchRun {
  batchId: string;
  total: number;
  /** Resolves when the run ends (finished or cancelled); rejects when it had to stop (journal or audit cannot be written, the run lock was lost). */
  finished: Promise<BatchRunResult>;
}

export interface WalkControl {
  signal?: AbortSignal;
  onProgress?: (progress: ListAllProgress) => void;
}

/** desk.batch: what the console's handlers and the CLI use. */
export interface DeskBatch {
  /** Reads, validates and spools the input into a draft; nothing is sent. */
  preview(request: BatchPreviewRequest): Promise<BatchPreview>;
  /** Removes a draft that will not be run (a dry run, a preview replaced or abandoned); false when it was not there, or is being started. */
  discard(draftId: string): Promise<boolean>;
  /** Removes every draft this process previewed and did not run (the app is closing; the CLI is done). */
  discardOpenDrafts(): void;
  /**
   * Opens the profile's connection: its keys are read (nothing is sent); with `token`, an access token is had
   * too (the service checks the keys), as start does. So missing or refused keys are said before the operator
   * is shown what is about to happen, not after.
   */
  checkConnection(profileId: string, options?: { token?: boolean }): Promise<void>;
  /** Walks the users list (read-only) and counts which of the draft's uids exist. */
  check(input: { draftId: string; profileId: string }, walk?: WalkControl): Promise<BatchCheckResult>;
  /** Checks the typed confirmation, turns the draft into a job (plan and items on disk) and runs it. */
  start(request: BatchStartRequest, control?: BatchRunControl): Promise<BatchRun>;
  /**
   * Runs the unfinished items of a job again (after a crash, a kill, a cancel); in-flight items are re-checked.
   * `confirmation` must match batchConfirmationPhrase(action, unfinished items), as the operator typed it.
   */
  resume(batchId: string, options: { concurrency: number; confirmation: string }, control?: BatchRunControl): Promise<BatchRun>;
  /** Walks the users list (read-only) and says which of a finished job's failed uids are still on the service (core/batch/retry-failed.ts). */
  checkFailed(batchId: string, walk?: WalkControl): Promise<BatchRetryCheck>;
  /**
   * Sends a finished job's failed items again, as new attempts of the same job: those the check (`checkId`) found
   * still there, or every failed item without one; the others are recorded, never sent. `confirmation` must match
   * batchConfirmationPhrase(action, items sent).
   */
  retry(batchId: string, options: { concurrency: number; confirmation: string; checkId?: string }, control?: BatchRunControl): Promise<BatchRun>;
  /** Every job in the data folder, newest first (the damaged ones left out: listAll). */
  list(): Promise<BatchJobSummary[]>;
  /** Every job in the data folder, newest first, and the jobs whose files cannot be used (damaged: never resumable). */
  listAll(): Promise<BatchJobList>;
  /** The newest unfinished job no process is running, or null. */
  mostRecentUnfinished(): Promise<BatchJobSummary | null>;
  /** One row per item, in input order, streamed (100,000 items are fine). */
  results(batchId: string): AsyncIterable<BatchResultRow>;
  /** The results as a file: CSV (formula cells neutralised) or JSON. */
  exportResults(batchId: string, format: 'csv' | 'json'): Promise<{ fileName: string; mimeType: string; content: string; rows: number }>;
  /**
   * Writes the results file on this computer and returns its path (results.ts writeResultsFile): in the job's folder, or
   * for a team job (its jobs are in the team database) in the data folder's batches/team-results/. Optional for test doubles.
   */
  writeResultsFile?(batchId: string, format: 'csv' | 'json'): Promise<string>;
}
