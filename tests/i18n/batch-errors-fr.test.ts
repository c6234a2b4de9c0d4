import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import { jobPaths } from '../../core/batch/job-files';
import { createJob } from '../../core/batch/journal';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { isPrivacyDeskError, type ErrorInfo, type PrivacyDeskError } from '../../shared/errors';
import type { MessageText } from '../../shared/message-text';
import { createI18n } from '../../renderer/i18n';
import { wordError, wordMessage } from '../../renderer/i18n/word-message';
import { createPreviewGate } from '../../web-host/preview-gate';
import { startWebHost, type RunningWebHost } from '../../web-host/web-host';

/**
 * The errors a console user can meet from batch erasure, raised by the real code and read in French as the
 * window reads them: each carries a message id the window words, and no English is left in the words — the
 * reference rule, the long Retry-After stop, a wrong resume phrase, the web host's BUSY and odd paths, every
 * damaged batch file (at resume and in the job list), a job that is not there, a job another process runs.
 */

const fr = createI18n('fr');
/** English words that never occur in French: one of them is a sentence left untranslated. */
const ENGLISH = /(?<!\p{L})(the|and|not|was|with|this|could|check|again|is|are|to|of|has|have|no|from|failed|connection|request|answer|service’s|user|nothing|sent|resume|line|file|job)(?!\p{L})/iu;
const TEN_YEARS = 10 * 365 * 86_400;

function inFrench(error: Pick<ErrorInfo, 'code' | 'text'>): string {
  expect(error.text, `${error.code} carries a message id`).toBeDefined();
  const worded = wordError(fr, error);
  // A message the window knows, not the fallback for its code (that would hide a missing id).
  expect(wordMessage(fr, error.text!), `${error.text!.id} is worded in French`).toBe(worded);
  expect(worded, worded).not.toMatch(ENGLISH);
  return worded;
}

function textInFrench(text: MessageText): string {
  const worded = wordMessage(fr, text);
  expect(worded, `${text.id} is worded in French`).toBeDefined();
  expect(worded, worded).not.toMatch(ENGLISH);
  return worded!;
}

async function failure(promise: Promise<unknown>): Promise<PrivacyDeskError> {
  try {
    await promise;
  } catch (error) {
    if (isPrivacyDeskError(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('batch errors, read in French', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  let desk: Desk;
  let uids: string[];
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 4 });
  });
  afterAll(async () => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset();
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-fr-'));
    // The service asks for a ten-year wait at every anonymisation: the run stops, resumable, and says until when.
    const rateLimited: typeof fetch = async (input, init) =>
      String(input).endsWith('/anonymize') ? new Response('{"error":"Too many requests"}', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(TEN_YEARS) } }) : fetch(input, init);
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'dpo', fetch: rateLimited });
    desk.useTemporaryConnection({ name: 'Bac à sable', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
    uids = (await desk.listUsers('temporary', { page: 1, perPage: 10 })).users.flatMap((user) => (user.uid && /^[\w.@-]+$/.test(user.uid) ? [user.uid] : [])).slice(0, 2);
    expect(uids).toHaveLength(2);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = async (reference?: string) => {
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'liste collée' });
    return desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'anonymize', logoutFirst: false, concurrency: 1, confirmation: 'ANONYMISE 2', ...(reference !== undefined ? { reference } : {}) });
  };

  it('the reference rule, the long Retry-After stop and a wrong resume phrase', async () => {
    const long = await failure(start('R'.repeat(201)));
    expect(long.text).toMatchObject({ id: 'input.nothingSent', params: { problem: { id: 'reference.tooLong' } } });
    expect(inFrench(long)).toContain('201');

    const run = await start();
    const stopped = await failure(run.finished);
    expect(stopped).toMatchObject({ code: 'RATE_LIMITED', outcome: 'not-sent', retryAfterSeconds: TEN_YEARS, text: { id: 'batch.stoppedWait' } });
    const words = inFrench(stopped);
    expect(words).toMatch(/d’attendre 3\u202f650 jours, jusqu’au \d{4}-\d\d-\d\dT/);
    expect(words).toContain('Passé ce délai, reprenez le lot');

    const wrongPhrase = await failure(desk.batch.resume(run.batchId, { concurrency: 1, confirmation: 'ANONYMISE 99' }));
    expect(wrongPhrase.text).toMatchObject({ id: 'batch.resumePhraseMismatch', params: { phrase: 'ANONYMISE 2' } });
    inFrench(wrongPhrase);
  });

  it('every damaged batch file: at resume, and in the job list', async () => {
    const jobs = [];
    for (const damage of ['plan', 'plan-missing', 'items', 'journal'] as const) {
      const journal = await createJob(dataDir, { action: 'anonymize', profileId: 'temporary', profileName: 'Bac à sable', baseUrl: sandbox.url, logoutFirst: false, total: 2, source: '-' });
      await journal.appendItems(uids.map((uid, index) => ({ line: index + 1, uid })));
      await journal.finishItems();
      await journal.recordStarted([0]);
      await journal.recordOutcome({ item: 0, outcome: 'done', status: 200 });
      await journal.close();
      const paths = jobPaths(dataDir, journal.jobId);
      if (damage === 'plan') writeFileSync(paths.plan, readFileSync(paths.plan, 'utf8').replace('"anonymize"', '"anonymise"'));
      if (damage === 'plan-missing') rmSync(paths.plan);
      if (damage === 'items') writeFileSync(paths.items, readFileSync(paths.items, 'utf8').replace(/"uid":"[^"]*"/, '"uid":5'));
      if (damage === 'journal') writeFileSync(paths.journal, readFileSync(paths.journal, 'utf8').replace('"done"', '"Fait"'));
      jobs.push(journal.jobId);
    }
    for (const jobId of jobs) {
      const refused = await failure(desk.batch.resume(jobId, { concurrency: 1, confirmation: 'ANONYMISE 1' }));
      expect(refused, jobId).toMatchObject({ code: 'INTERNAL', outcome: 'not-sent' });
      expect(['batch.fileDamaged', 'batch.fileLineDamaged']).toContain(refused.text?.id);
      inFrench(refused);
      // What we found wrong is in our words (the why, in French); only a parser's own words are quoted apart.
      const why = (refused.text?.params as { why?: MessageText } | undefined)?.why;
      expect(why, jobId).toBeDefined();
      if (why?.id !== 'batch.file.notAsWritten') expect(refused.quote, `${jobId}: ${why?.id}`).toBeUndefined();
    }
    const { damaged } = await desk.batch.listAll();
    expect(damaged.map((job) => job.batchId).sort()).toEqual([...jobs].sort());
    for (const job of damaged) expect(textInFrench(job.text)).toContain('plus rien ne sera envoyé depuis ce lot');
  });

  it('a job that is not there, and a job another process runs', async () => {
    inFrench(await failure(desk.batch.resume('20261122-190000-abcdef', { concurrency: 1, confirmation: 'ANONYMISE 1' })));
    const journal = await createJob(dataDir, { action: 'anonymize', profileId: 'temporary', profileName: 'Bac à sable', baseUrl: sandbox.url, logoutFirst: false, total: 2, source: '-' });
    await journal.appendItems(uids.map((uid, index) => ({ line: index + 1, uid })));
    await journal.finishItems();
    try {
      const busy = await failure(desk.batch.resume(journal.jobId, { concurrency: 1, confirmation: 'ANONYMISE 2' }));
      // Run by this very process here: named (pid, computer, since when, the lock), in French too.
      expect(busy.text?.id).toBe('batch.runLockHeld');
      inFrench(busy);
    } finally {
      await journal.close();
    }
  });
});

describe('the web host’s refusals of batch work, read in French', () => {
  let host: RunningWebHost;
  let dataDir: string;
  let staticDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-web-fr-'));
    staticDir = mkdtempSync(join(tmpdir(), 'privacy-desk-web-fr-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Privacy Desk</title>');
    host = await startWebHost({ port: 0, dataDir, staticDir, bundledSandbox: false, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
  });
  afterAll(async () => {
    await host?.close();
    for (const dir of [dataDir, staticDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('BUSY: a preview while others hold the room', async () => {
    const admit = createPreviewGate({ concurrent: 1, bytes: 1_000 }, 1_000);
    const sent: unknown[] = [];
    const request = (length: number) => ({ headers: { 'content-length': String(length) } }) as unknown as FastifyRequest;
    const reply = () => {
      const answer = { raw: new EventEmitter(), code: () => answer, header: () => answer, send: (body: unknown) => sent.push(body) };
      return answer as unknown as FastifyReply;
    };
    expect(await admit(request(500), reply())).toBeUndefined();
    await admit(request(500), reply());
    const [refusal] = sent as Array<{ ok: false; error: ErrorInfo }>;
    expect(refusal!.error).toMatchObject({ code: 'BUSY', outcome: 'not-sent', text: { id: 'bridge.previewBusy' } });
    expect(inFrench(refusal!.error)).toContain('réessayez quand les autres aperçus seront finis');
  });

  it('odd bridge paths and methods', async () => {
    const ours = { 'X-Privacy-Desk-Token': host.token, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
    for (const [method, path] of [['DELETE', '/bridge/batch.list'], ['POST', '/bridge/batch.list/'], ['POST', `/bridge/batch.${'x'.repeat(120)}`], ['PUT', '/bridge/batch.start']] as const) {
      const response = await fetch(`${host.origin}${path}`, { method, headers: ours, body: '{}' });
      const body = (await response.json()) as { ok: false; error: ErrorInfo };
      expect(body.error, `${method} ${path}`).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
      inFrench(body.error);
    }
  });
});
