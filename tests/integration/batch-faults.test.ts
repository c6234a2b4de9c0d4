import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCredentialStore } from '../../core/credential-store';
import { createDesk } from '../../core/desk';
import type { FetchLike } from '../../core/types';
import { startSandbox, type RunningSandbox, type UidRequest } from '../../sandbox/server';
import type { BatchResultRow } from '../../shared/batch';
import { createUser, inspectUser } from './helpers';

/**
 * A batch of 1,000 uids against the sandbox with its faults on — a fifth of
 * the answers 5xx, dropped connections, lost answers (the act done, the answer cut), 429 bursts
 * with Retry-After in both forms, tokens that live 2 s — ends with every item accounted for, and
 * nothing sent again for a uid once it was recorded done.
 *
 * No wall-clock waits: the desk reads the sandbox's clock, and every wait of the run (backoff,
 * the pacer's hold for a Retry-After) moves that clock, once no request is on the wire, instead of
 * waiting (virtualTime below), so token expiry, rate-limit windows and Retry-After dates all run
 * on one virtual clock.
 */

const EXISTING = 950;
const NEVER_EXISTED = 50;
const TOTAL = EXISTING + NEVER_EXISTED;
// Awkward shapes, as real client applications choose them (docs/SERVICE-API.md#uids-in-paths).
const SHAPES = [(i: number) => `batch-user-${i}`, (i: number) => `zoë.müller+${i}@example.org`, (i: number) => `team/lead ${i}`, (i: number) => `100%done#${i}?`, (i: number) => `東京ユーザー${i}`];
const existingUid = (i: number) => (SHAPES[i % SHAPES.length] as (i: number) => string)(i);
const missingUid = (i: number) => `never-existed-${i}`;
const CLOCK_START = Date.parse('2026-11-22T12:00:00Z');

interface ClientSend {
  uid: string;
  /** The answer's status, or 'cut' when no answer came. */
  status: number | 'cut';
}

/**
 * One virtual clock for the run: the sandbox's. A wait of the run (backoff, the pacer's hold for a
 * Retry-After) never waits on the wall clock: it is queued, and once no request is on the wire the
 * clock jumps to the earliest wake-up and that sleeper goes on at once. Time passes only while
 * every sender waits, as it would in real time, where the senders' waits overlap instead of adding
 * up, and where a request does not age by another sender's backoff while it is on the wire.
 */
function virtualTime(sandbox: RunningSandbox) {
  let onTheWire = 0;
  let ticking = false;
  const sleepers: { wakeAt: number; wake: () => void }[] = [];
  const tick = () => {
    ticking = false;
    if (onTheWire > 0 || sleepers.length === 0) return;
    sleepers.sort((a, b) => a.wakeAt - b.wakeAt);
    const first = sleepers[0] as (typeof sleepers)[number];
    const ahead = first.wakeAt - sandbox.now();
    // The sandbox's clock counts whole milliseconds.
    if (ahead > 0) sandbox.advanceClock(Math.ceil(ahead) / 1000);
    while (sleepers.length > 0 && (sleepers[0] as (typeof sleepers)[number]).wakeAt <= sandbox.now()) sleepers.shift()?.wake();
    schedule();
  };
  const schedule = () => {
    if (ticking) return;
    ticking = true;
    setImmediate(tick);
  };
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const cancel = () => {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        resolve();
      };
      const sleeper = {
        wakeAt: sandbox.now() + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', cancel);
          resolve();
        },
      };
      sleepers.push(sleeper);
      signal?.addEventListener('abort', cancel, { once: true });
      schedule();
    });
  const onWire = async <T>(request: () => Promise<T>): Promise<T> => {
    onTheWire += 1;
    try {
      return await request();
    } finally {
      onTheWire -= 1;
      schedule();
    }
  };
  return { sleep, onWire };
}

interface ClientSend {
  uid: string;
  /** The answer's status, or 'cut' when no answer came. */
  status: number | 'cut';
}

/** The real fetch, noting every erasure request per uid (in the order sent) and the form of every Retry-After. */
function watchingFetch(onWire: <T>(request: () => Promise<T>) => Promise<T>) {
  const erasures = new Map<string, ClientSend[]>();
  const retryAfter = { seconds: 0, httpDate: 0, none: 0 };
  const fetch: FetchLike = async (input, init) => {
    const url = new URL(String(input));
    const match = /^\/api\/v1\/users\/([^/]+)$/.exec(url.pathname);
    const send: ClientSend | undefined = match && init?.method === 'DELETE' ? { uid: decodeURIComponent(match[1] as string), status: 'cut' } : undefined;
    if (send) erasures.set(send.uid, [...(erasures.get(send.uid) ?? []), send]);
    const response = await onWire(() => globalThis.fetch(input, init));
    if (send) send.status = response.status;
    if (response.status === 429) {
      const header = response.headers.get('retry-after');
      if (header === null) retryAfter.none += 1;
      else if (/^\d+$/.test(header)) retryAfter.seconds += 1;
      else if (/GMT$/.test(header)) retryAfter.httpDate += 1;
    }
    return response;
  };
  return { fetch, erasures, retryAfter };
}

const answered2xx = (send: ClientSend | undefined) => typeof send?.status === 'number' && send.status >= 200 && send.status < 300;
const effective = (request: UidRequest) => request.act === 'delete' && request.status >= 200 && request.status < 300;

describe('a batch of 1,000 uids against the sandbox with faults on', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;

  beforeAll(async () => {
    // Its clock stands still unless the run's waits move it.
    sandbox = await startSandbox({ users: 0, tokenTtlSeconds: 2, now: () => CLOCK_START });
    for (let i = 0; i < EXISTING; i += 1) await createUser(sandbox, { uid: existingUid(i) });
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-faults-'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends with every item done, not found or failed with a reason; none sent again once recorded done; every attempt audited', async () => {
    const time = virtualTime(sandbox);
    const watch = watchingFetch(time.onWire);
    const desk = createDesk({
      dataDir,
      credentialStore: createSessionCredentialStore(),
      via: 'cli',
      appVersion: 'batch-faults-test',
      operator: 'tester',
      fetch: watch.fetch,
      now: () => sandbox.now(),
      batchSleep: time.sleep,
    });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });

    // Missing uids spread through the list, not bunched at one end.
    const uids: string[] = [];
    for (let i = 0, missing = 0; i < EXISTING; i += 1) {
      uids.push(existingUid(i));
      if (i % 19 === 7 && missing < NEVER_EXISTED) uids.push(missingUid(missing++));
    }
    while (uids.length < TOTAL) uids.push(missingUid(uids.length - EXISTING));
    const missingUids = new Set(uids.filter((uid) => uid.startsWith('never-existed-')));
    expect(missingUids.size).toBe(NEVER_EXISTED);

    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'faults.txt' });
    expect(preview).toMatchObject({ items: TOTAL, invalidCount: 0, duplicates: 0 });

    // The check before the confirmation (read-only) finds which uids the service does not know: those stay "not found" whatever faults their attempts meet.
    const check = await desk.batch.check({ draftId: preview.draftId, profileId: 'temporary' });
    expect(check).toMatchObject({ users: EXISTING, existing: EXISTING, missing: NEVER_EXISTED });

    sandbox.setVariants({ retryAfter: 'seconds' });
    // The faults go on before the start, which asks for a token first: a transient answer to it is asked again, as every read.
    sandbox.setFaults({ errorRate: 0.2, dropRate: 0.05, lostAnswerRate: 0.05, rateLimit: 10 });
    const runStarted = performance.now();
    const run = await desk.batch.start(
      { draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, reference: 'FAULTS-1', concurrency: 8, confirmation: `DELETE ${TOTAL}` },
      {
        // Retry-After switches form half-way: both must slow the whole run down.
        onProgress: ({ counts }) => sandbox.setVariants({ retryAfter: counts.unfinished > TOTAL / 2 ? 'seconds' : 'http-date' }),
      },
    );
    const result = await run.finished;
    const runSeconds = (performance.now() - runStarted) / 1000;
    sandbox.setFaults({ errorRate: 0, dropRate: 0, lostAnswerRate: 0, rateLimit: 0 });

    // The faults did happen: 429s in both forms, tokens renewed many times over.
    expect(watch.retryAfter.seconds).toBeGreaterThan(0);
    expect(watch.retryAfter.httpDate).toBeGreaterThan(0);
    expect(sandbox.stats().tokenRequests.authentication).toBeGreaterThan(5);

    expect(result.state).toBe('finished');
    expect(result.counts.unfinished).toBe(0);

    const rows: BatchResultRow[] = [];
    for await (const row of desk.batch.results(run.batchId)) rows.push(row);
    expect(rows.map((row) => row.uid)).toEqual(uids);
    const tally = { done: 0, 'done-before-interruption': 0, 'not-found': 0, failed: 0, unfinished: 0 };
    for (const row of rows) tally[row.outcome] += 1;
    expect(tally).toEqual({
      done: result.counts.done,
      'done-before-interruption': result.counts.doneBeforeInterruption,
      'not-found': result.counts.notFound,
      failed: result.counts.failed,
      unfinished: 0,
    });
    // Lost answers happened, and were told apart from first-try 404s.
    expect(tally['done-before-interruption']).toBeGreaterThan(0);
    expect(tally.done).toBeGreaterThan(EXISTING * 0.8);

    const problems: string[] = [];
    const problem = (row: BatchResultRow, what: string, log: UidRequest[]) => problems.push(`${row.outcome} ${JSON.stringify(row.uid)}: ${what} — sandbox log ${JSON.stringify(log.map(({ status, answered }) => ({ status, answered })))}, client ${JSON.stringify(watch.erasures.get(row.uid) ?? [])}`);
    const neverExistedOutcomes = { 'not-found': 0, failed: 0 };
    for (const row of rows) {
      const log = sandbox.requestLog(row.uid).filter((request) => request.act === 'delete');
      const sent = watch.erasures.get(row.uid) ?? [];
      const effectiveCount = log.filter(effective).length;
      if (effectiveCount > 1) problem(row, `erased ${effectiveCount} times with success`, log);
      const state = (await inspectUser(sandbox, row.uid))?.state;

      if (missingUids.has(row.uid)) {
        if (effectiveCount > 0 || state !== undefined) problem(row, 'a uid that never existed was erased', log);
        if (row.outcome === 'not-found' || row.outcome === 'failed') neverExistedOutcomes[row.outcome] += 1;
        else problem(row, 'a uid that never existed (and the check said so) is not "not found"', log);
      } else if (row.outcome !== 'failed' && state !== 'deleted') {
        problem(row, `still ${state ?? 'missing'} in the sandbox`, log);
      }

      if (row.outcome === 'done') {
        // Its last request reached the service, erased the user and was answered: nothing after it, from the client or in the log.
        const last = log.at(-1);
        if (!last || !effective(last) || !last.answered) problem(row, 'the last logged request is not the answered erasure', log);
        if (!answered2xx(sent.at(-1))) problem(row, 'the client sent something after the answered erasure', log);
        if (sent.filter(answered2xx).length !== 1) problem(row, 'more than one answered erasure', log);
      }
      if (row.outcome === 'done-before-interruption' && !missingUids.has(row.uid)) {
        // An earlier request took effect but its answer was cut; the retry met a 404.
        const lost = log.findIndex((request) => effective(request) && !request.answered);
        if (lost < 0) problem(row, 'no erasure whose answer was lost', log);
        if (log.at(-1)?.status !== 404 || log.findIndex((request) => request.status === 404) < lost) problem(row, 'no 404 after the lost answer', log);
      }
      if (row.outcome === 'failed' && !row.reason?.trim()) problem(row, 'failed without a reason', log);
      // Failed, yet erased (an answer was lost, the retries met faults): the reason must send the operator to check the user.
      if (row.outcome === 'failed' && effectiveCount > 0 && !/may have reached the service|check the user/i.test(row.reason ?? '')) problem(row, 'failed, but erased in the sandbox, and the reason does not say to check the user', log);
    }
    expect(problems).toEqual([]);
    expect(neverExistedOutcomes['not-found']).toBeGreaterThan(NEVER_EXISTED * 0.8);

    // The audit trail: intact, and every request of every item has its attempted and outcome entries, with the job id.
    expect(await desk.verifyAudit()).toMatchObject({ ok: true });
    const reading = await desk.readAudit();
    const batchEntries = reading.entries.filter((entry) => entry.via === 'batch');
    expect(batchEntries.length).toBe(reading.entries.length);
    expect(batchEntries.filter((entry) => entry.jobId !== run.batchId || entry.reference !== 'FAULTS-1').slice(0, 3)).toEqual([]);
    // The job's summary: one entry, its counts those of the run.
    const summaries = batchEntries.filter((entry) => entry.action !== 'delete');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ action: 'batch', outcome: 'summary', batch: { ...result.counts, total: TOTAL, operation: 'delete', ended: 'finished' } });
    const byUid = new Map<string, { attempted: number; outcomes: number }>();
    for (const entry of batchEntries) {
      if (entry.action !== 'delete') continue;
      const counts = byUid.get(entry.uid) ?? { attempted: 0, outcomes: 0 };
      if (entry.outcome === 'attempted') counts.attempted += 1;
      else counts.outcomes += 1;
      byUid.set(entry.uid, counts);
    }
    const auditProblems: string[] = [];
    for (const uid of uids) {
      const counts = byUid.get(uid) ?? { attempted: 0, outcomes: 0 };
      const sent = watch.erasures.get(uid)?.length ?? 0;
      if (counts.attempted < 1 || counts.attempted !== counts.outcomes || counts.attempted < sent) auditProblems.push(`${JSON.stringify(uid)}: ${counts.attempted} attempted, ${counts.outcomes} outcomes, ${sent} requests sent`);
    }
    expect(auditProblems).toEqual([]);
    console.log(
      `batch-faults: ${TOTAL} items in ${runSeconds.toFixed(1)} s of wall time, ${((sandbox.now() - CLOCK_START) / 1000).toFixed(0)} s on the sandbox's clock — ${JSON.stringify(tally)}; never-existing uids ${JSON.stringify(neverExistedOutcomes)}; ` +
        `429s with Retry-After ${JSON.stringify(watch.retryAfter)}; ${sandbox.stats().tokenRequests.authentication} token requests; ` +
        `${[...watch.erasures.values()].reduce((sum, sends) => sum + sends.length, 0)} erasure requests sent; audit ${reading.entries.length} entries`,
    );
  }, 60_000);
});

describe('a batch at a 50 % error rate', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;

  beforeAll(async () => {
    // The faults' draws are seeded: the same answers fail on every run of the test.
    sandbox = await startSandbox({ users: 0, now: () => CLOCK_START, faultSeed: 8 });
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-half-'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes every item of a 10-item batch: each is tried for minutes, not five times', async () => {
    const uids = Array.from({ length: 10 }, (_, i) => `half-${i}`);
    for (const uid of uids) await createUser(sandbox, { uid });
    const time = virtualTime(sandbox);
    const watch = watchingFetch(time.onWire);
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'batch-faults-test', operator: 'tester', fetch: watch.fetch, now: () => sandbox.now(), batchSleep: time.sleep });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'half.txt' });
    // On before the start: its token request meets them too. One at a time, so the seeded draws fall on the same requests every run.
    sandbox.setFaults({ errorRate: 0.5 });
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 1, confirmation: 'DELETE 10' });
    const result = await run.finished;
    sandbox.setFaults({ errorRate: 0 });
    expect(result).toMatchObject({ state: 'finished', counts: { failed: 0, unfinished: 0 } });
    expect(result.counts.done + result.counts.doneBeforeInterruption).toBe(10);
    for (const uid of uids) expect((await inspectUser(sandbox, uid))?.state).toBe('deleted');
    // Half the answers were 5xx: some item needed more than the five attempts that used to fail it.
    const attempts = uids.map((uid) => watch.erasures.get(uid)?.length ?? 0);
    expect(Math.max(...attempts)).toBeGreaterThan(5);
  }, 60_000);
});

describe('a batch under the sandbox’s rate limit', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  const LIMIT = 30;
  const ITEMS = 300;

  beforeAll(async () => {
    sandbox = await startSandbox({ users: 0, now: () => CLOCK_START });
    dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-batch-pace-'));
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const cases = (['sliding', 'fixed'] as const).flatMap((rateLimitWindow) => (['seconds', 'none'] as const).map((retryAfter) => ({ rateLimitWindow, retryAfter })));
  it.each(cases)('keeps at least 0.9 of a $rateLimitWindow window’s limit with at most 10 % answered 429 (Retry-After $retryAfter)', async ({ rateLimitWindow, retryAfter }) => {
    const prefix = `pace-${rateLimitWindow}-${retryAfter}-`;
    const uids = Array.from({ length: ITEMS }, (_, i) => `${prefix}${i}`);
    for (const uid of uids) await createUser(sandbox, { uid });
    const time = virtualTime(sandbox);
    const watch = watchingFetch(time.onWire);
    const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli', appVersion: 'batch-faults-test', operator: 'tester', fetch: watch.fetch, now: () => sandbox.now(), batchSleep: time.sleep });
    desk.useTemporaryConnection({ name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: sandbox.credentials });
    const preview = await desk.batch.preview({ source: uids.join('\n'), sourceName: 'pace.txt' });
    sandbox.setVariants({ retryAfter });
    // A fresh window: what the test before used of it is not this run's to learn from.
    sandbox.advanceClock(2);
    sandbox.setFaults({ rateLimit: LIMIT, rateLimitWindow });
    const startedAt = sandbox.now();
    const run = await desk.batch.start({ draftId: preview.draftId, profileId: 'temporary', action: 'delete', logoutFirst: false, concurrency: 16, confirmation: `DELETE ${ITEMS}` });
    const result = await run.finished;
    const seconds = (sandbox.now() - startedAt) / 1000;
    sandbox.setFaults({ rateLimit: 0 });
    expect(result).toMatchObject({ state: 'finished', counts: { done: ITEMS, failed: 0 } });
    const sends = [...watch.erasures.values()].flat();
    const refused = sends.filter((send) => send.status === 429).length;
    // The limit was met (so the pace was learned, not given) and rarely again.
    expect(refused).toBeGreaterThan(0);
    expect(refused / sends.length).toBeLessThanOrEqual(0.1);
    expect(ITEMS / seconds).toBeGreaterThanOrEqual(0.9 * LIMIT);
  }, 60_000);
});
