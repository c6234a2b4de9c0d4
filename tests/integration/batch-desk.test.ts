import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk, type Desk } from '../../core/desk';
import type { BatchProgress } from '../../shared/batch';
import { inspectUid } from '../../sandbox/test-support';
import { pdfText } from '../support/pdf-text';
import { readItems } from '../../core/batch/job-state';
import { createJob } from '../../core/batch/journal';
import { useSandbox } from './helpers';

describe('desk.batch against the sandbox', () => {
  const sandbox = useSandbox({ users: 40 });
  let dataDir: string;
  let desk: Desk;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-'));
    desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'app', appVersion: 'test', operator: 'support-agent' });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const seededUids = async (count: number) => (await desk.listUsers('temporary', { page: 1, perPage: 100 })).users.flatMap((user) => (user.uid ? [user.uid] : [])).slice(0, count);

  it('runs a pasted list after the typed count: existing users erased, unknown ones not found, every act audited under the job', async () => {
    const uids = await seededUids(20);
    const pasted = [...uids, 'never-existed-1', uids[0], '', 'never-existed-2'].join('\r\n');
    const preview = await desk.batch.preview({ source: pasted, sourceName: 'pasted list' });
    expect(preview).toMatchObject({ items: 22, duplicates: 1, invalidCount: 0, firstUids: uids.slice(0, 3), lastUids: [uids[19], 'never-existed-1', 'never-existed-2'] });

    const check = await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    expect(check).toMatchObject({ existing: 20, missing: 2, missingSample: ['never-existed-1', 'never-existed-2'] });

    const before = sandbox.current.stats().apiRequests;
    const start = { draftId: preview.draftId, profileId: 'temporary', action: 'delete' as const, logoutFirst: true, reference: 'REQ-77', concurrency: 4 };
    await expect(desk.batch.start({ ...start, confirmation: 'DELETE 21' })).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH', message: expect.stringContaining('DELETE 22') });
    expect(sandbox.current.stats().apiRequests).toBe(before);

    const progress: BatchProgress[] = [];
    const run = await desk.batch.start({ ...start, confirmation: 'DELETE 22' }, { onProgress: (p) => progress.push(p) });
    const result = await run.finished;
    expect(result).toMatchObject({ state: 'finished', total: 22, counts: { done: 20, notFound: 2, failed: 0, unfinished: 0 } });
    expect(progress.at(-1)).toMatchObject({ counts: { done: 20, notFound: 2, unfinished: 0 }, inFlight: 0 });
    for (const uid of uids) expect((await inspectUid(sandbox.current, uid)).body).toMatchObject({ state: 'deleted' });

    const reading = await desk.readAudit();
    expect(reading.verdict).toMatchObject({ ok: true });
    const ofJob = reading.entries.filter((entry) => entry.jobId === run.batchId);
    expect(ofJob.every((entry) => entry.via === 'batch' && entry.reference === 'REQ-77' && entry.operator === 'support-agent')).toBe(true);
    // Per uid: the logout step and the erasure, each attempted and then answered.
    expect(ofJob.filter((entry) => entry.action === 'delete' && entry.outcome === 'attempted')).toHaveLength(22);
    expect(ofJob.filter((entry) => entry.action === 'delete' && entry.outcome === 'done')).toHaveLength(20);
    expect(ofJob.filter((entry) => entry.action === 'logout' && entry.outcome === 'attempted')).toHaveLength(22);
    // The run's summary, once, and in the reference's receipt.
    expect(ofJob.filter((entry) => entry.action === 'batch')).toEqual([
      expect.objectContaining({ outcome: 'summary', uid: '', batch: { operation: 'delete', total: 22, done: 20, doneBeforeInterruption: 0, notFound: 2, failed: 0, unfinished: 0, ended: 'finished' } }),
    ]);
    const receipt = await pdfText((await desk.receipt({ reference: 'REQ-77' }, { locale: 'en' })).content);
    expect(receipt.text).toContain('22 items: 20 done, 2 not found, 0 failed, 0 unfinished (finished)');

    // What the check found missing travels with the job: a 404 for these is "not found" whatever came before.
    const marked = [];
    for await (const item of readItems(dataDir, run.batchId)) if (item.missingAtCheck) marked.push(item.uid);
    expect(marked).toEqual(['never-existed-1', 'never-existed-2']);

    const rows = [];
    for await (const row of desk.batch.results(run.batchId)) rows.push(row);
    expect(rows.map((row) => row.outcome).sort()).toEqual([...Array(20).fill('done'), 'not-found', 'not-found'].sort());
    expect((await desk.batch.list())[0]).toMatchObject({ batchId: run.batchId, state: 'finished', counts: { done: 20, notFound: 2 } });
    // A draft is used once.
    await expect(desk.batch.start({ ...start, confirmation: 'DELETE 22' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('a reference over 200 characters is an invalid line at preview; a job holding one anyway fails that item alone, with its reason, and finishes', async () => {
    const uids = await seededUids(4);
    const longReference = `REQ-${'7'.repeat(296)}`;
    const preview = await desk.batch.preview({ source: `uid,ticket\n${uids[0]},T-1\n${uids[1]},${longReference}\n`, referenceColumn: 'ticket', sourceName: 'tickets.csv' });
    expect(preview).toMatchObject({ items: 1, invalidCount: 1, invalid: [{ line: 3, problem: { code: 'reference-too-long', length: 300, max: 200 }, reason: expect.stringContaining('at most 200') }] });
    expect(preview.invalid[0]?.excerpt).toMatch(/^REQ-7+…$/);

    // A job written before the preview checked references (or by hand): its bad item sits among good ones.
    const journal = await createJob(dataDir, { action: 'delete', profileId: 'temporary', profileName: 'Sandbox', baseUrl: sandbox.current.url, logoutFirst: false, total: 4, source: 'old.csv' });
    await journal.appendItems(uids.map((uid, index) => (index === 1 ? { line: index + 2, uid, reference: longReference } : { line: index + 2, uid, reference: `T-${index}` })));
    await journal.finishItems();
    await journal.close();

    const run = await desk.batch.resume(journal.jobId, { concurrency: 4, confirmation: 'DELETE 4' });
    expect(await run.finished).toMatchObject({ state: 'finished', counts: { done: 3, failed: 1, unfinished: 0 } });
    const rows = [];
    for await (const row of desk.batch.results(journal.jobId)) rows.push(row);
    expect(rows.map((row) => row.outcome)).toEqual(['done', 'failed', 'done', 'done']);
    expect(rows[1]?.reason).toContain('The reference is 300 characters long; references are at most 200');
    expect(rows[1]?.reason).not.toMatch(/audit/i);
    // Never sent, never audited as attempted; the others were.
    expect((await inspectUid(sandbox.current, uids[1]!)).body).toMatchObject({ state: 'active' });
    const attempted = (await desk.readAudit()).entries.filter((entry) => entry.jobId === journal.jobId && entry.outcome === 'attempted').map((entry) => entry.uid);
    expect(attempted.sort()).toEqual([uids[0], uids[2], uids[3]].sort());
  });

  it('refuses wrong credentials before the job exists: nothing sent, no job left behind', async () => {
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: { ...sandbox.current.credentials, apiSecret: 'wrong-secret' } });
    const preview = await desk.batch.preview({ source: 'alice\nbob', sourceName: 'pasted list' });
    const before = sandbox.current.stats().apiRequests;
    await expect(desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 4, confirmation: 'DELETE 2' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(sandbox.current.stats().apiRequests).toBe(before);
    expect(await desk.batch.list()).toEqual([]);
  });

  it('a cancelled run sends nothing more and resumes with only the unfinished items', async () => {
    const cancel = new AbortController();
    let erasures = 0;
    // The operator presses Cancel as the fifth erasure leaves.
    const counting = createDesk({
      dataDir,
      credentialStore: createSessionCredentialStore(),
      via: 'app',
      fetch: (input, init) => {
        if (String(input).endsWith('/anonymize') && ++erasures === 5) cancel.abort();
        return fetch(input, init);
      },
    });
    counting.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: sandbox.current.credentials.applicationName, credentials: sandbox.current.credentials });
    const uids = await seededUids(30);
    const preview = await counting.batch.preview({ source: uids.join('\n'), sourceName: 'ids.txt' });
    const run = await counting.batch.start(
      { draftId: preview.draftId, profileId: 'temporary', action: 'anonymize', logoutFirst: false, concurrency: 2, confirmation: 'ANONYMISE 30' },
      { signal: cancel.signal },
    );
    const first = await run.finished;
    expect(first.state).toBe('cancelled');
    const doneFirst = first.counts.done;
    // The fifth and the one beside it in flight finish; nothing more leaves.
    expect(doneFirst).toBeGreaterThanOrEqual(5);
    expect(doneFirst).toBeLessThanOrEqual(6);
    expect(erasures).toBe(doneFirst);
    expect(await desk.batch.mostRecentUnfinished()).toMatchObject({ batchId: run.batchId, state: 'unfinished', counts: { unfinished: 30 - doneFirst } });

    const requestsBefore = sandbox.current.stats().apiRequests;
    // The typed phrase names the unfinished count: the whole job's count is refused, nothing sent.
    await expect(desk.batch.resume(run.batchId, { concurrency: 4, confirmation: 'ANONYMISE 30' })).rejects.toMatchObject({ code: 'CONFIRMATION_MISMATCH', message: expect.stringContaining(`ANONYMISE ${30 - doneFirst} exactly`) });
    expect(sandbox.current.stats().apiRequests).toBe(requestsBefore);
    const again = await desk.batch.resume(run.batchId, { concurrency: 4, confirmation: `anonymize ${30 - doneFirst}`.toUpperCase() });
    const second = await again.finished;
    expect(second).toMatchObject({ state: 'finished', counts: { done: 30, notFound: 0, doneBeforeInterruption: 0, unfinished: 0 } });
    // Only the unfinished ones were sent (plus token requests, which are not API requests).
    expect(sandbox.current.stats().apiRequests - requestsBefore).toBe(30 - doneFirst);
    await expect(desk.batch.resume(run.batchId, { concurrency: 4, confirmation: 'ANONYMISE 0' })).rejects.toMatchObject({ message: expect.stringContaining('is finished') });
    const summaries = (await desk.readAudit()).entries.filter((entry) => entry.action === 'batch').map((entry) => entry.batch);
    expect(summaries).toEqual([
      expect.objectContaining({ ended: 'cancelled', done: doneFirst, unfinished: 30 - doneFirst }),
      expect.objectContaining({ ended: 'finished', done: 30, unfinished: 0 }),
    ]);
  });
});
