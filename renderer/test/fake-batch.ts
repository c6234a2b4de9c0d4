import { batchConfirmationPhrase, jobStateOfRun, matchesBatchConfirmation, PREVIEW_ENDS, type BatchCounts, type BatchInvalidLine, type BatchJobLive, type BatchJobSummary, type BatchPreview, type BatchProgress, type BatchResultRow, type BatchRunResult } from '../../shared/batch';
import type { BatchRetryCheck } from '../../shared/batch-retry';
import type { ProfileView } from '../../shared/contract';
import type { FakeBehaviours } from './fake-client';
import { PrivacyDeskError } from '../../shared/errors';
import { uidProblem } from '../../shared/uid';

type BatchMethods = Pick<FakeBehaviours, 'batch.preview' | 'batch.discard' | 'batch.check' | 'batch.start' | 'batch.resume' | 'batch.retryCheck' | 'batch.retry' | 'batch.setPaused' | 'batch.list' | 'batch.get' | 'batch.results'>;

interface DraftItem {
  line: number;
  uid: string;
  reference?: string;
}

interface FakeJob {
  summary: BatchJobSummary;
  rows: BatchResultRow[];
}

export const FAKE_FAILURE_REASON = 'The service answered HTTP 503 five times; nothing more was tried.';

const hex = (length: number, seed: number) => (seed.toString(16) + '0'.repeat(length)).slice(0, length).padStart(length, '0');

/**
 * The batch.* methods over memory, close enough to desk.batch for the screen: preview splits lines
 * (or CSV/TSV with a header), validates with the shared uid rules and drops duplicates; start checks
 * the typed phrase; jobs only start — a test drives them with job.progress / job.finished events, and a
 * finished event settles the job's rows (done first, then not found, then failed, the rest unfinished).
 */
export function createFakeBatch(nextJobId: (kind: 'batch.check' | 'batch.retryCheck' | 'batch.run') => string, profiles: ProfileView[], seeded: Array<Omit<BatchJobSummary, 'revision'> & { revision?: number }> = []) {
  const drafts = new Map<string, { items: DraftItem[]; sourceName: string }>();
  const jobs = new Map<string, FakeJob>(seeded.map((seed) => [seed.batchId, { summary: { revision: 0, ...seed }, rows: seededRows(seed) }]));
  /** batch.run jobs by job id → batch id. */
  const runs = new Map<string, string>();
  const paused = new Map<string, boolean>();
  /** The checks of failed items a test finished (job.finished of a batch.retryCheck), by check id: batch.retry uses each once. */
  const retryChecks = new Map<string, BatchRetryCheck>();
  let sequence = 0;
  let previews = 0;

  const methods: BatchMethods = {
    'batch.preview': async (input) => {
      // As the core: every preview is a draft of its own (a new id), even of the same text.
      previews += 1;
      const preview = parse(input.text, input.sourceName ?? 'pasted list', input.uidColumn, input.referenceColumn, input.hasHeader, previews);
      drafts.set(preview.draftId, { items: preview.allItems, sourceName: preview.sourceName });
      const { allItems, ...answer } = preview;
      void allItems;
      return answer;
    },
    'batch.discard': async (input) => {
      return { discarded: drafts.delete(input.draftId) };
    },
    'batch.check': async () => {
      return { jobId: nextJobId('batch.check') };
    },
    'batch.start': async (input) => {
      const draft = drafts.get(input.draftId);
      if (!draft) throw new PrivacyDeskError({ code: 'NOT_FOUND', message: 'This preview is no longer known: paste the list again.' });
      if (!matchesBatchConfirmation(input.confirmation, input.action, draft.items.length)) {
        throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message: `Type ${batchConfirmationPhrase(input.action, draft.items.length)} to confirm.` });
      }
      const profile = profiles.find((p) => p.id === input.profileId);
      sequence += 1;
      const batchId = `20261122-1200${String(sequence).padStart(2, '0')}-${hex(6, sequence)}`;
      const total = draft.items.length;
      const summary: BatchJobSummary = {
        batchId,
        action: input.action,
        profileId: input.profileId,
        profileName: profile?.name ?? input.profileId,
        baseUrl: profile?.baseUrl ?? '',
        ...(input.reference ? { reference: input.reference } : {}),
        logoutFirst: input.logoutFirst ?? false,
        source: draft.sourceName,
        createdAt: new Date(Date.UTC(2026, 10, 22, 12, 0, sequence)).toISOString(),
        total,
        state: 'running',
        counts: { done: 0, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: total },
        revision: 0,
      };
      // The operator's choice of trimmed uids: here, every uid with spaces at an end (the check's answer is the test's).
      const sent = (item: DraftItem): BatchResultRow =>
        input.useTrimmed && item.uid !== item.uid.trim() ? { ...item, uid: item.uid.trim(), pastedUid: item.uid, outcome: 'unfinished' } : { ...item, outcome: 'unfinished' };
      const jobId = nextJobId('batch.run');
      // Run by this app: the list serves its run's state (the tests' progress events say the rest).
      summary.live = { state: 'running', inFlight: 0, ratePerSecond: 0, jobId };
      jobs.set(batchId, { summary, rows: draft.items.map(sent) });
      // The draft became the job: it cannot be started a second time.
      drafts.delete(input.draftId);
      runs.set(jobId, batchId);
      return { jobId, batchId };
    },
    'batch.resume': async (input) => {
      const job = jobs.get(input.batchId);
      if (!job || job.summary.state !== 'unfinished') throw new PrivacyDeskError({ code: 'NOT_FOUND', message: 'No unfinished batch has this id.' });
      if (!matchesBatchConfirmation(input.confirmation, job.summary.action, job.summary.counts.unfinished)) {
        throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message: `Type ${batchConfirmationPhrase(job.summary.action, job.summary.counts.unfinished)} to confirm.` });
      }
      const jobId = nextJobId('batch.run');
      job.summary = { ...job.summary, state: 'running', live: { state: 'running', inFlight: 0, ratePerSecond: 0, jobId } };
      runs.set(jobId, input.batchId);
      return { jobId, batchId: input.batchId };
    },
    'batch.retryCheck': async (input) => {
      const job = jobs.get(input.batchId);
      if (!job || job.summary.state !== 'finished' || job.summary.counts.failed === 0) throw new PrivacyDeskError({ code: 'INVALID_INPUT', message: 'No finished batch with failed items has this id.' });
      return { jobId: nextJobId('batch.retryCheck') };
    },
    'batch.retry': async (input) => {
      const job = jobs.get(input.batchId);
      const check = retryChecks.get(input.checkId);
      if (!job || check?.batchId !== input.batchId) throw new PrivacyDeskError({ code: 'INVALID_INPUT', message: 'Check the failed items again.' });
      if (check.toSend > 0 && !matchesBatchConfirmation(input.confirmation, job.summary.action, check.toSend)) {
        throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', message: `Type ${batchConfirmationPhrase(job.summary.action, check.toSend)} to confirm.` });
      }
      retryChecks.delete(input.checkId);
      // As desk.batch: the ones the check did not find are recorded at once, the others are unfinished again, and the job runs.
      const { counts } = job.summary;
      const retried = { ...counts, failed: 0, notFound: counts.notFound + check.gone.notFound, doneBeforeInterruption: counts.doneBeforeInterruption + check.gone.doneBeforeInterruption, unfinished: check.toSend };
      const jobId = nextJobId('batch.run');
      job.summary = { ...job.summary, state: 'running', counts: retried, live: { state: 'running', inFlight: 0, ratePerSecond: 0, jobId } };
      runs.set(jobId, input.batchId);
      return { jobId, batchId: input.batchId };
    },
    'batch.setPaused': async (input) => {
      paused.set(input.jobId, input.paused);
      const job = jobs.get(runs.get(input.jobId) ?? '');
      // As desk.batch: the job's state is its run's, paused or running, in every answer from now on.
      if (job?.summary.live) job.summary = { ...job.summary, state: input.paused ? 'paused' : 'running', live: { ...job.summary.live, state: input.paused ? 'paused' : 'running' } };
      return { paused: input.paused };
    },
    'batch.list': async () => {
      return { jobs: [...jobs.values()].map((job) => job.summary).sort((a, b) => b.createdAt.localeCompare(a.createdAt)) };
    },
    'batch.get': async (input) => {
      return { job: jobs.get(input.batchId)?.summary ?? null };
    },
    'batch.results': async (input) => {
      const job = jobs.get(input.batchId);
      if (!job) throw new PrivacyDeskError({ code: 'NOT_FOUND', message: 'No batch has this id.' });
      const format = input.format ?? 'csv';
      const content =
        format === 'json'
          ? JSON.stringify(job.rows)
          : ['line,uid,reference,outcome,status,request_id,reason,at', ...job.rows.map((row) => [row.line, row.uid, row.reference ?? '', row.outcome, row.status ?? '', row.requestId ?? '', row.reason ?? '', row.at ?? ''].map(csvCell).join(','))].join('\n');
      return { fileName: `batch-${input.batchId}.${format}`, mimeType: format === 'json' ? 'application/json' : 'text/csv', content, rows: job.rows.length };
    },
  };

  /** A finished batch.run: the job takes the reported counts, and its rows their outcomes. */
  const settle = (jobId: string, result: BatchRunResult | undefined) => {
    const batchId = runs.get(jobId);
    const job = batchId ? jobs.get(batchId) : undefined;
    if (!job) return;
    const counts = result?.counts ?? job.summary.counts;
    job.rows = applyCounts(job.rows, counts);
    const { live: _live, ...rest } = job.summary;
    void _live;
    job.summary = { ...rest, counts, state: counts.unfinished === 0 ? 'finished' : 'unfinished' };
  };

  /** A progress event: as desk.batch does, the job's list entry takes the run's counts and state. */
  const report = (progress: BatchProgress & { jobId: string }) => {
    const job = jobs.get(progress.batchId);
    if (!job) return;
    const live: BatchJobLive = { state: progress.state, inFlight: progress.inFlight, ratePerSecond: progress.ratePerSecond, jobId: progress.jobId };
    if (progress.secondsLeft !== undefined) live.secondsLeft = progress.secondsLeft;
    if (progress.waitSeconds !== undefined) live.waitSeconds = progress.waitSeconds;
    if (progress.pausedSince !== undefined) live.pausedSince = progress.pausedSince;
    // A paused run's job is paused, a stopping one's stopping (waiting is a running job's), as desk.batch lists it.
    job.summary = { ...job.summary, state: jobStateOfRun(progress.state), counts: progress.counts, live, revision: progress.revision ?? job.summary.revision };
  };

  return {
    methods,
    settle,
    report,
    /** A finished check of failed items (its job.finished event): batch.retry accepts its id from then on. */
    checkedFailed: (result: BatchRetryCheck) => retryChecks.set(result.checkId, result),
    /** The batch a batch.run job runs, when it is one. */
    batchOf: (jobId: string) => runs.get(jobId),
    isPaused: (jobId: string) => paused.get(jobId) ?? false,
    job: (batchId: string) => jobs.get(batchId)?.summary,
  };
}

function applyCounts(rows: BatchResultRow[], counts: BatchCounts): BatchResultRow[] {
  const plan: Array<BatchResultRow['outcome']> = [
    ...Array<BatchResultRow['outcome']>(counts.done).fill('done'),
    ...Array<BatchResultRow['outcome']>(counts.doneBeforeInterruption).fill('done-before-interruption'),
    ...Array<BatchResultRow['outcome']>(counts.notFound).fill('not-found'),
    ...Array<BatchResultRow['outcome']>(counts.failed).fill('failed'),
  ];
  return rows.map((row, index) => {
    const outcome = plan[index] ?? 'unfinished';
    const at = '2026-11-22T12:01:00.000Z';
    if (outcome === 'done' || outcome === 'done-before-interruption') return { line: row.line, uid: row.uid, ...(row.reference ? { reference: row.reference } : {}), outcome, status: outcome === 'done' ? 200 : 404, requestId: `req-${row.line}`, at };
    if (outcome === 'not-found') return { line: row.line, uid: row.uid, ...(row.reference ? { reference: row.reference } : {}), outcome, status: 404, requestId: `req-${row.line}`, at };
    if (outcome === 'failed') return { line: row.line, uid: row.uid, ...(row.reference ? { reference: row.reference } : {}), outcome, status: 503, reason: FAKE_FAILURE_REASON, at };
    return { line: row.line, uid: row.uid, ...(row.reference ? { reference: row.reference } : {}), outcome };
  }).map((row, index) => (rows[index]?.pastedUid !== undefined ? { ...row, pastedUid: rows[index]!.pastedUid } : row));
}

function seededRows(summary: Pick<BatchJobSummary, 'total' | 'counts'>): BatchResultRow[] {
  const rows = Array.from({ length: summary.total }, (_, index) => ({ line: index + 1, uid: `seeded-${index + 1}`, outcome: 'unfinished' as const }));
  return applyCounts(rows, summary.counts);
}

const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const UID_COLUMN_NAMES = new Set(['uid', 'user id', 'userid', 'user_id', 'user uid']);

function parse(text: string, sourceName: string, uidColumn: string | number | undefined, referenceColumn: string | number | undefined, hasHeader: boolean | undefined, previewNumber: number): BatchPreview & { allItems: DraftItem[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const first = lines[0] ?? '';
  const kind: BatchPreview['kind'] = first.includes('\t') ? 'tsv' : first.includes(',') ? 'csv' : 'list';
  const separator = kind === 'tsv' ? '\t' : ',';
  let columns: string[] | undefined;
  let uidIndex = 0;
  let referenceIndex = -1;
  let start = 0;
  if (kind !== 'list') {
    const header = first.split(separator);
    const pick = (column: string | number | undefined) => (typeof column === 'number' ? column : column === undefined ? -1 : header.indexOf(column));
    const named = header.findIndex((cell) => UID_COLUMN_NAMES.has(cell.trim().toLowerCase()));
    if (hasHeader ?? (typeof uidColumn === 'string' || typeof referenceColumn === 'string' || named >= 0)) {
      columns = header;
      start = 1;
      uidIndex = uidColumn !== undefined ? pick(uidColumn) : Math.max(0, named);
      referenceIndex = pick(referenceColumn);
      if (uidIndex < 0) throw new PrivacyDeskError({ code: 'INVALID_INPUT', message: `There is no column named ${String(uidColumn)}.` });
    }
  }
  const seen = new Set<string>();
  const items: DraftItem[] = [];
  const invalid: BatchInvalidLine[] = [];
  let invalidCount = 0;
  let duplicates = 0;
  lines.forEach((line, index) => {
    if (index < start || line.trim() === '') return;
    const cells = kind === 'list' ? [line] : line.split(separator);
    const uid = cells[uidIndex] ?? '';
    const problem = uidProblem(uid);
    if (problem) {
      invalidCount += 1;
      invalid.push({ line: index + 1, problem, reason: `The uid is ${problem.code}.`, excerpt: uid.slice(0, 80) });
      return;
    }
    if (seen.has(uid)) {
      duplicates += 1;
      return;
    }
    seen.add(uid);
    const reference = referenceIndex >= 0 ? cells[referenceIndex] : undefined;
    items.push({ line: index + 1, uid, ...(reference ? { reference } : {}) });
  });
  let digest = previewNumber;
  for (const char of text + String(uidColumn) + String(referenceColumn)) digest = (digest * 31 + char.charCodeAt(0)) >>> 0;
  return {
    draftId: hex(32, digest),
    kind,
    items: items.length,
    withReference: items.filter((item) => item.reference).length,
    edgeSpaces: { count: items.filter((item) => item.uid !== item.uid.trim()).length, lines: items.filter((item) => item.uid !== item.uid.trim()).slice(0, 20).map((item) => item.line) },
    invalid,
    invalidCount,
    duplicates,
    ...(columns ? { columns } : {}),
    ...(kind !== 'list' ? { uidColumn: columns ? { index: uidIndex, name: columns[uidIndex] ?? '' } : { index: uidIndex } } : {}),
    firstUids: items.slice(0, PREVIEW_ENDS).map((item) => item.uid),
    lastUids: items.slice(-PREVIEW_ENDS).map((item) => item.uid),
    sourceName,
    allItems: items,
  };
}
