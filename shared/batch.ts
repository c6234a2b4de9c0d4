import { z } from 'zod';
import { profileIdSchema } from './profile';
import { ERASURE_ACTIONS, type ErasureAction } from './users';
import type { ReferenceProblem } from './reference';
import type { UidProblem } from './uid';
import type { MessageText } from './message-text';
import type { Quote } from './errors';

/**
 * Batch erasure, as the console and the CLI see it:
 *   preview  — the pasted text or file is read, validated and spooled into a draft (nothing sent);
 *   check    — optional: a walk of the users list says which uids exist (read-only);
 *   start    — the operator types the phrase (`DELETE 250`); the draft becomes a job and runs;
 *   progress — counts, rate and time left while it runs; pause, resume, cancel;
 *   results  — one row per item, exported as CSV or JSON.
 * A job lives in the data folder (core/batch/journal.ts) and can be resumed after a crash.
 */

export const DEFAULT_BATCH_CONCURRENCY = 4;
export const MAX_BATCH_CONCURRENCY = 16;
/** What the bridge carries in one preview: a pasted list or a file read by the window. */
export const MAX_BATCH_TEXT_LENGTH = 32 * 1024 * 1024;
/** Invalid lines a preview lists over the bridge (all are counted). */
export const MAX_PREVIEW_INVALID = 200;
/** How many uids a preview shows at each end of the list. */
export const PREVIEW_ENDS = 3;

export const batchIdSchema = z.string().regex(/^\d{8}-\d{6}-[0-9a-f]{6}$/, 'not a batch job id');
export const draftIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'not a batch draft id');

/** The words the operator types to confirm: the operation in capitals and the count, e.g. `DELETE 250`. */
export const CONFIRMATION_WORDS: Record<ErasureAction, string> = { anonymize: 'ANONYMISE', delete: 'DELETE' };

export function batchConfirmationPhrase(action: ErasureAction, count: number): string {
  return `${CONFIRMATION_WORDS[action]} ${count}`;
}

/** Exact words and count; spaces around are ignored, and ANONYMIZE is taken for ANONYMISE. */
export function matchesBatchConfirmation(typed: string, action: ErasureAction, count: number): boolean {
  const normalised = typed.trim().replace(/\s+/g, ' ').replace(/^ANONYMIZE /, 'ANONYMISE ');
  return normalised === batchConfirmationPhrase(action, count);
}

const columnSchema = z.union([z.string().min(1).max(200), z.number().int().min(0).max(10_000)]);

/**
 * What separates the columns of a CSV or TSV input: a comma, a semicolon (the CSV of spreadsheets where the
 * comma is the decimal mark: French, German…), or a tab (TSV).
 */
export const BATCH_SEPARATORS = ['comma', 'semicolon', 'tab'] as const;
export type BatchSeparator = (typeof BATCH_SEPARATORS)[number];
export const SEPARATOR_CHARACTERS: Record<BatchSeparator, ',' | ';' | '\t'> = { comma: ',', semicolon: ';', tab: '\t' };

export const batchPreviewInputSchema = z
  .object({
    text: z.string().max(MAX_BATCH_TEXT_LENGTH),
    /** auto: guessed (the separator too); list: one uid a line, each line whole; csv, tsv: columns. */
    kind: z.enum(['auto', 'list', 'csv', 'tsv']).default('auto'),
    /** The operator's choice of separator: comma or semicolon with kind auto or csv, tab with auto or tsv. */
    separator: z.enum(BATCH_SEPARATORS).optional(),
    /** A header name or a 0-based index; default: the column named like a uid, else the first. */
    uidColumn: columnSchema.optional(),
    referenceColumn: columnSchema.optional(),
    hasHeader: z.boolean().optional(),
    /** A file name, or "pasted list": kept in the job's plan. */
    sourceName: z.string().min(1).max(300).default('pasted list'),
  })
  .refine(({ kind, separator }) => separatorFitsKind(kind, separator), { message: 'a separator goes with kind auto, or with csv (comma, semicolon) or tsv (tab)', path: ['separator'] });

/** A list has no separator; a TSV file's is the tab, a CSV file's a comma or a semicolon. */
export function separatorFitsKind(kind: 'auto' | 'list' | 'csv' | 'tsv', separator: BatchSeparator | undefined): boolean {
  if (separator === undefined || kind === 'auto') return true;
  if (kind === 'tsv') return separator === 'tab';
  return kind === 'csv' && separator !== 'tab';
}

export interface BatchInvalidLine {
  line: number;
  /** The rule it breaks (its uid: shared/uid.ts; its reference: shared/reference.ts): the window words it in its language; `reason` is the core's English. */
  problem: UidProblem | ReferenceProblem;
  reason: string;
  excerpt: string;
}

export interface BatchPreview {
  /** The spooled, validated items: start and check name it. */
  draftId: string;
  kind: 'list' | 'csv' | 'tsv';
  /** Valid, distinct uids. */
  items: number;
  /** Items that carry their own reference (from a reference column). */
  withReference: number;
  invalid: BatchInvalidLine[];
  invalidCount: number;
  duplicates: number;
  /** The header row, when there is one (a list's skipped "uid" / "User ID" line too). */
  columns?: string[];
  /** The column the uids were read from (CSV and TSV): 0-based index, and its header name. */
  uidColumn?: { index: number; name?: string };
  /** How many cells the first row has (CSV and TSV): without a header, the console offers the columns by number. */
  columnCount?: number;
  /** What separated the columns (CSV and TSV): guessed from the first line, or as the operator chose. */
  separator?: BatchSeparator;
  /** Valid uids that begin or end with spaces: kept exactly, as everywhere, but worth a look (the first lines named). */
  edgeSpaces: { count: number; lines: number[] };
  /** A CSV export of Privacy Desk's own (an audit or batch results export, known by its header row): its cells were read as they were before export, without the apostrophe that kept spreadsheets from running them. */
  fromExport?: 'audit' | 'batch-results';
  firstUids: string[];
  lastUids: string[];
  sourceName: string;
}

export const batchCheckInputSchema = z.object({ draftId: draftIdSchema, profileId: profileIdSchema });

/** A preview the window no longer shows (replaced by a newer one, or left): its draft is removed at once. */
export const batchDiscardInputSchema = z.object({ draftId: draftIdSchema });

export const batchLookalikeSchema = z.object({
  line: z.number().int().min(1),
  /** As pasted. */
  uid: z.string(),
  why: z.enum(['invisible', 'case']),
  /** The uids on the service it looks like (at most 3). */
  onService: z.array(z.string()).min(1).max(3),
});
export type BatchLookalike = z.output<typeof batchLookalikeSchema>;

export const batchCheckResultSchema = z.object({
  /** Users the walk met. */
  users: z.number().int().min(0),
  existing: z.number().int().min(0),
  missing: z.number().int().min(0),
  /** The first missing uids, to show. */
  missingSample: z.array(z.string()).max(20),
  /**
   * uids with spaces or invisible characters at an end (an NBSP, a trailing ZWSP…) that are not on the service
   * while their trimmed form is: most likely a paste mistake. The operator may choose to send the trimmed form instead (batch.start `useTrimmed`).
   * Those whose trimmed form is also in the list are not counted (it would be erased twice).
   */
  trimmable: z.object({
    count: z.number().int().min(0),
    /** The first ones: their input line, the uid as pasted, and its trimmed form. */
    sample: z.array(z.object({ line: z.number().int().min(1), uid: z.string(), trimmed: z.string() })).max(20),
    /**
     * The list as it is sent when the operator chooses the trimmed uids: how many of its uids exist then, the
     * first missing ones, and its first and last uids (the preview's, trimmed where chosen). Absent from checks
     * made before it was added.
     */
    whenTrimmed: z
      .object({
        existing: z.number().int().min(0),
        missing: z.number().int().min(0),
        missingSample: z.array(z.string()).max(20),
        firstUids: z.array(z.string()),
        lastUids: z.array(z.string()),
      })
      .optional(),
  }),
  /**
   * uids not on the service while one that differs only by invisible characters inside ('invisible': "jean␣dupont"
   * pasted with a no-break space) or by capitals or accent encoding ('case': "Marie.Curie@…" for "marie.curie@…") is:
   * a likely mistake, said with the uid(s) on the service. Never sent in their place: two uids that differ so may be
   * two people, so the operator corrects the list. Those whose counterpart is in the list too are left out.
   */
  lookalikes: z
    .object({
      count: z.number().int().min(0),
      sample: z.array(batchLookalikeSchema).max(20),
    })
    .optional(),
});
export type BatchCheckResult = z.output<typeof batchCheckResultSchema>;

export const batchStartInputSchema = z.object({
  draftId: draftIdSchema,
  profileId: profileIdSchema,
  action: z.enum(ERASURE_ACTIONS),
  /** End each user's sessions first, then erase. */
  logoutFirst: z.boolean().default(false),
  /** One reference for every item that has none of its own. */
  reference: z.string().max(200).optional(),
  concurrency: z.number().int().min(1).max(MAX_BATCH_CONCURRENCY).default(DEFAULT_BATCH_CONCURRENCY),
  /** What the operator typed: must match batchConfirmationPhrase(action, items). */
  confirmation: z.string().max(100),
  /** The operator's choice: send the trimmed form of the uids the check found trimmable (recorded in the job and the audit trail). */
  useTrimmed: z.boolean().default(false),
});

export const batchResumeInputSchema = z.object({
  batchId: batchIdSchema,
  concurrency: z.number().int().min(1).max(MAX_BATCH_CONCURRENCY).default(DEFAULT_BATCH_CONCURRENCY),
  /** What the operator typed: must match batchConfirmationPhrase(action, unfinished items), e.g. `DELETE 120`. */
  confirmation: z.string().max(100),
});

/** Counts of a job's items by where they stand. */
export const batchCountsSchema = z.object({
  done: z.number().int().min(0),
  /** Sent again after an interruption and answered 404: the first attempt had done it. */
  doneBeforeInterruption: z.number().int().min(0),
  /** 404 on a first try: already erased, or never existed. */
  notFound: z.number().int().min(0),
  failed: z.number().int().min(0),
  /** Not finished yet (never sent, in flight, or waiting for a retry). */
  unfinished: z.number().int().min(0),
});
export type BatchCounts = z.output<typeof batchCountsSchema>;

export const BATCH_RUN_STATES = ['running', 'paused', 'waiting', 'stopping'] as const;

export const batchProgressSchema = z.object({
  batchId: batchIdSchema,
  total: z.number().int().min(0),
  counts: batchCountsSchema,
  inFlight: z.number().int().min(0),
  /** Items finished per second, over the last few seconds. */
  ratePerSecond: z.number().min(0),
  /** Missing until the rate is known. */
  secondsLeft: z.number().min(0).optional(),
  /** running; paused (by the operator); waiting (the service asked to slow down: waitSeconds); stopping (cancel: items in flight finish). */
  state: z.enum(BATCH_RUN_STATES),
  waitSeconds: z.number().min(0).optional(),
  /** While paused: when the operator paused it (ISO 8601). A rate or a time left would say nothing then. */
  pausedSince: z.iso.datetime({ offset: true }).optional(),
  /**
   * Set by desk.batch on every report of a run in this process, increasing: of two views of a job (this
   * event, a batch.list answer), the one with the higher revision is the newer (the window keeps that one).
   */
  revision: z.number().int().min(0).optional(),
});
export type BatchProgress = z.output<typeof batchProgressSchema>;

export const batchRunResultSchema = z.object({
  batchId: batchIdSchema,
  total: z.number().int().min(0),
  counts: batchCountsSchema,
  /** finished: every item has a final outcome; cancelled: stopped by the operator (resumable). */
  state: z.enum(['finished', 'cancelled']),
});
export type BatchRunResult = z.output<typeof batchRunResultSchema>;

export const BATCH_JOB_STATES = ['running', 'paused', 'stopping', 'unfinished', 'finished'] as const;
export type BatchJobState = (typeof BATCH_JOB_STATES)[number];

/** A process runs the job now (the app, another window, the CLI), going, paused or stopping: it cannot be resumed elsewhere. */
export function isBeingRun(state: BatchJobState): boolean {
  return state === 'running' || state === 'paused' || state === 'stopping';
}

/** A job's state while its run reports: paused and stopping as the run says; waiting is a running job's. */
export function jobStateOfRun(state: (typeof BATCH_RUN_STATES)[number]): BatchJobState {
  return state === 'paused' || state === 'stopping' ? state : 'running';
}

export interface BatchJobSummary {
  batchId: string;
  action: ErasureAction;
  profileId: string;
  profileName: string;
  baseUrl: string;
  reference?: string;
  logoutFirst: boolean;
  source: string;
  createdAt: string;
  total: number;
  /**
   * running: a process runs it now; paused: a process runs it and its operator paused it (nothing is sent until
   * resumed there); stopping: it was cancelled there and its items in flight finish — as every process reads it
   * (core/batch/job-runner.ts); unfinished: nobody runs it (a run
   * killed or crashed too), it can be resumed; finished: every item has its outcome.
   */
  state: BatchJobState;
  /** While this process runs it: the run's own counts (ahead of the journal); otherwise as the journal records them. */
  counts: BatchCounts;
  /** Present while this process (the app) runs the job: what its run says now. A job run by another process (the CLI) has none. */
  live?: BatchJobLive;
  /** Present while a process holds the job's run lock and has said which (running, paused or stopping): who, since when, where the lock is. */
  holder?: BatchJobHolder;
  /** The revision this view was read at (BatchProgress.revision): the higher of two views of a job is the newer. */
  revision: number;
}

/** The process that holds a job's run lock (core/batch/lock-holder.ts), as its runner.json records it. */
export interface BatchJobHolder {
  /** Its process id, on its computer. */
  pid: number;
  host: string;
  /** It runs on this computer (whose core made this summary), and its process was found running. */
  onThisComputer: boolean;
  /** When it took the job (ISO 8601). */
  since: string;
  lockPath: string;
  /** All of the above, as a phrase ("process 4242 on this computer (desk-7) since …, holding the lock …"). */
  text: MessageText;
}

/** The file of a batch job (core/batch/journal.ts) that a damaged job's entry names. */
export const BATCH_JOB_FILES = ['plan.json', 'items.jsonl', 'journal.jsonl'] as const;

/**
 * A job whose files cannot be used (changed, removed or damaged outside Privacy Desk, or unreadable). It is
 * listed so that it does not silently disappear, and it is never offered for resuming: nothing more is sent
 * from it.
 */
export interface BatchJobDamage {
  batchId: string;
  /** When the job was created (from its id, UTC): its plan may be what cannot be read. */
  createdAt: string;
  file: (typeof BATCH_JOB_FILES)[number];
  path: string;
  /** The first line that cannot be used (items.jsonl, journal.jsonl). */
  line?: number;
  /** What is wrong, what it means (nothing more will be sent from the job) and what to do. */
  text: MessageText;
  /** The parser's or the system's own words about it, apart (never translated). */
  quote?: Quote;
  /** What the plan says, when the plan could be read (the items or the journal are damaged). */
  plan?: Pick<BatchJobSummary, 'action' | 'profileName' | 'baseUrl' | 'total' | 'source' | 'reference'>;
}

/** batch.list: every job, newest first, and those whose files cannot be used. */
export interface BatchJobList {
  jobs: BatchJobSummary[];
  damaged: BatchJobDamage[];
}

/**
 * The one truth about a running job, on every screen: the run's state and figures, served with the job
 * (batch.list, batch.get) and carried by its progress events, which have the same revision numbers.
 */
export interface BatchJobLive {
  state: (typeof BATCH_RUN_STATES)[number];
  inFlight: number;
  ratePerSecond: number;
  secondsLeft?: number;
  waitSeconds?: number;
  /** While paused: since when (BatchProgress.pausedSince). */
  pausedSince?: string;
  /** The bridge job ('batch.run') that runs it here: pause and cancel name it. */
  jobId?: string;
}

/** An item's outcome in the results: a final one, or unfinished when the job was not finished. */
export const BATCH_RESULT_OUTCOMES = ['done', 'done-before-interruption', 'not-found', 'failed', 'unfinished'] as const;
export type BatchResultOutcome = (typeof BATCH_RESULT_OUTCOMES)[number];

export interface BatchResultRow {
  /** 1-based input line. */
  line: number;
  /** The uid sent. */
  uid: string;
  /** The uid as pasted, when the operator chose to send its trimmed form (`uid`). */
  pastedUid?: string;
  reference?: string;
  outcome: BatchResultOutcome;
  status?: number;
  requestId?: string;
  /** Why it failed, in words (failed items): in English, as the CSV and the CLI give it. */
  reason?: string;
  /** The same reason as a message (shared/messages/): the window words it in its language. */
  reasonText?: MessageText;
  /** When the outcome was recorded (ISO 8601). */
  at?: string;
}

export const batchResultsInputSchema = z.object({ batchId: batchIdSchema, format: z.enum(['csv', 'json']).default('csv') });

export interface BatchResultsFile {
  fileName: string;
  mimeType: string;
  content: string;
  rows: number;
}

export const batchJobIdInput = z.object({ batchId: batchIdSchema });
