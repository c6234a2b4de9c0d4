import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bridgeEvents, type AppInfo, type BridgeEvent, type BridgeResponse, type ProfileView } from '../shared/contract';
import type { JobFinished, JobProgress } from '../shared/jobs';
import { PrivacyDeskError } from '../shared/errors';
import { startSandbox, type RunningSandbox } from '../sandbox/server';
import { createSessionCredentialStore } from '../core/credential-store';
import { createDesk } from '../core/desk';
import type { FetchLike } from '../core/types';
import { createBridgeEventHub } from './bridge-event-hub';
import { createBridgeHandlers } from './create-bridge-handlers';
import { dispatchBridgeCall } from './dispatch';
import { createJobRegistry } from './jobs';
import type { BridgeHandlers } from './types';

const SECRET = 'jobs-test-secret-4c1e9a7f3b5d2e8c6a0f4b2d9e7c5a3f1b8d6e4c2a0f9b7d5e3c1a8f6b4d2e0c';
const API_KEY = 'jobs-test-key-WXYZ';
const USERS = 23;

let sandbox: RunningSandbox;
let dataDir: string;
let handlers: BridgeHandlers;
let profile: ProfileView;
const events: BridgeEvent[] = [];
const finishedWaiters = new Map<string, (finished: JobFinished) => void>();
/** Page numbers the core asked the service for, in order. */
let pagesAsked: number[] = [];
/** When set, the request for this page waits until `release` is called. */
let hold: { page: number; release: () => void; reached: Promise<void>; released: Promise<void> } | null = null;

const countingFetch: FetchLike = async (input, init) => {
  const url = new URL(String(input));
  if (url.pathname.endsWith('/api/v1/users')) {
    const page = Number(url.searchParams.get('page'));
    pagesAsked.push(page);
    if (hold && hold.page === page) {
      markReached();
      await hold.released;
    }
  }
  return fetch(input, init);
};
let markReached: () => void = () => {};

/** Holds the request for `page` until the test releases it: the walk is then provably between pages. */
function holdPage(page: number) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (markReached = resolve));
  hold = { page, release, reached, released };
  return hold;
}

async function value<T>(method: string, input: unknown): Promise<T> {
  const response: BridgeResponse<unknown> = await dispatchBridgeCall(handlers, method, input);
  if (!response.ok) throw new PrivacyDeskError(response.error);
  return response.value as T;
}

function finishedOf(jobId: string): Promise<JobFinished> {
  const already = events.find((e) => e.name === 'job.finished' && e.payload.jobId === jobId);
  if (already) return Promise.resolve(already.payload as JobFinished);
  return new Promise((resolve) => finishedWaiters.set(jobId, resolve));
}

/** A walk's progress (users.walk, users.index): pages, never a batch run's counts. */
type WalkJobProgress = Extract<JobProgress, { page: number }>;

function progressOf(jobId: string): WalkJobProgress[] {
  return events
    .flatMap((e) => (e.name === 'job.progress' && e.payload.jobId === jobId ? [e.payload] : []))
    .map((p) => {
      if (p.kind === 'batch.run') throw new Error(`job ${jobId} reported a batch run's progress`);
      return p;
    });
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, users: USERS, apiKey: API_KEY, apiSecret: SECRET });
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-jobs-'));
  const desk = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), credentialProblem: 'no keychain in tests', fetch: countingFetch, via: 'app' });
  const appInfo = (): AppInfo => ({ version: '9.9.9', locale: 'en-GB', keychain: desk.keychainStatus() });
  const hub = createBridgeEventHub();
  hub.subscribe((event) => {
    events.push(event);
    if (event.name === 'job.finished') finishedWaiters.get(event.payload.jobId)?.(event.payload);
  });
  handlers = createBridgeHandlers({ desk, appInfo, jobs: createJobRegistry(hub.emit) });
  profile = await value<ProfileView>('profiles.save', { name: 'Jobs test', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, apiKey: API_KEY, apiSecret: SECRET });
});

afterAll(async () => {
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  pagesAsked = [];
  hold = null;
});

describe('users.walk over a real sandbox', () => {
  it('reports every page, then finishes with a count and a few uids', async () => {
    const { jobId } = await value<{ jobId: string }>('users.walk', { profileId: profile.id, perPage: 5 });
    const finished = await finishedOf(jobId);

    expect(progressOf(jobId).map((p) => [p.page, p.totalPages, p.collected])).toEqual([
      [1, 5, 5],
      [2, 5, 10],
      [3, 5, 15],
      [4, 5, 20],
      [5, 5, 23],
    ]);
    expect(finished).toMatchObject({ jobId, kind: 'users.walk', status: 'completed', result: { users: USERS, pages: 5 } });
    if (finished.status === 'completed' && finished.kind === 'users.walk') expect(finished.result.firstUids).toHaveLength(10);
    expect(pagesAsked).toEqual([1, 2, 3, 4, 5]);
  });

  it('every event matches its schema in the contract', () => {
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(bridgeEvents[event.name].safeParse(event.payload).success, JSON.stringify(event)).toBe(true);
  });

  it('jobs.cancel stops the walk between pages: no further page is asked for', async () => {
    const held = holdPage(2);
    const { jobId } = await value<{ jobId: string }>('users.walk', { profileId: profile.id, perPage: 5 });
    await held.reached; // page 1 is read and reported, page 2 is on its way
    expect(await value('jobs.cancel', { jobId })).toEqual({ cancelled: true });
    held.release();

    const finished = await finishedOf(jobId);
    expect(finished).toEqual({ jobId, kind: 'users.walk', status: 'cancelled' });
    // The page already asked for is still reported; page 3 never is.
    expect(progressOf(jobId).map((p) => p.page)).toEqual([1, 2]);
    expect(pagesAsked).toEqual([1, 2]);
    // A finished job is forgotten.
    expect(await value('jobs.cancel', { jobId })).toEqual({ cancelled: false });
  });

  it('a cancel for a job that does not exist answers cancelled: false', async () => {
    expect(await value('jobs.cancel', { jobId: 'no-such-job' })).toEqual({ cancelled: false });
  });

  it('a walk on an unknown profile fails with PROFILE_NOT_FOUND and sends nothing', async () => {
    const { jobId } = await value<{ jobId: string }>('users.walk', { profileId: 'no-such-profile' });
    expect(await finishedOf(jobId)).toMatchObject({ status: 'failed', error: { code: 'PROFILE_NOT_FOUND' } });
    expect(progressOf(jobId)).toEqual([]);
    expect(pagesAsked).toEqual([]);
  });

  it.each([
    ['a page size over 100', 'users.walk', { profileId: 'x', perPage: 500 }],
    ['a missing profile id', 'users.walk', {}],
    ['an empty job id', 'jobs.cancel', { jobId: '' }],
    ['a job id that is not a string', 'jobs.cancel', { jobId: 7 }],
  ])('refuses %s before starting anything', async (_label, method, input) => {
    const before = events.length;
    const response = await dispatchBridgeCall(handlers, method, input);
    expect(response).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(events.length).toBe(before);
  });

  it('no event carries the API secret', () => {
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toMatch(/Bearer\s+\S/);
  });
});

describe('users.index and users.search over a real sandbox', () => {
  it('reads every page as a job (100 a page), then finds a user by part of their uid, ignoring case', async () => {
    expect(await value('users.search', { profileId: profile.id, text: 'ALICE' })).toEqual({ state: 'missing' });
    const { jobId } = await value<{ jobId: string }>('users.index', { profileId: profile.id });
    const finished = await finishedOf(jobId);
    expect(finished).toMatchObject({ jobId, kind: 'users.index', status: 'completed', result: { users: USERS, pages: 1 } });
    expect(progressOf(jobId).map((p) => [p.kind, p.page, p.collected])).toEqual([['users.index', 1, USERS]]);
    const answer = await value<{ state: string; matches: Array<{ user: { uid: string }; ranges: unknown[] }> }>('users.search', { profileId: profile.id, text: 'ALICE' });
    expect(answer.state).toBe('ready');
    expect(answer.matches.map((m) => m.user.uid)).toContain('alice@example.org');
    expect(await value('users.forgetIndex', { profileId: profile.id })).toEqual({ forgotten: true });
    expect(await value('users.search', { profileId: profile.id, text: 'ALICE' })).toEqual({ state: 'missing' });
  });
});

describe('users.lookup over a real sandbox', () => {
  it('a user created after the list was read is absent from it until it is read again; a user the CLI deleted leaves it at once', async () => {
    let { jobId } = await value<{ jobId: string }>('users.index', { profileId: profile.id });
    await finishedOf(jobId);
    const created = await fetch(`${sandbox.url}/sandbox/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid: 'new arrival', full_name: 'New Arrival', email: 'new@example.org' }),
    });
    expect(created.status).toBe(201);
    expect(await value('users.lookup', { profileId: profile.id, uid: 'new arrival' })).toMatchObject({ state: 'absent', indexedUsers: USERS });
    ({ jobId } = await value<{ jobId: string }>('users.index', { profileId: profile.id }));
    await finishedOf(jobId);
    expect(await value('users.lookup', { profileId: profile.id, uid: 'new arrival' })).toMatchObject({ state: 'found', user: { fullName: 'New Arrival' } });

    // The CLI on the same data folder and keychain entry (its own Desk, as its own process would have).
    const cli = createDesk({ dataDir, credentialStore: createSessionCredentialStore(), via: 'cli' });
    cli.useTemporaryConnection({ baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName, credentials: { apiKey: API_KEY, apiSecret: SECRET } });
    await cli.erase({ profileId: 'temporary', action: 'delete', uid: 'new arrival', confirmUid: 'new arrival', logoutFirst: false });
    expect(await value('users.lookup', { profileId: profile.id, uid: 'new arrival' })).toMatchObject({ state: 'absent', erasure: { action: 'delete', via: 'cli' } });
    expect(await value('users.search', { profileId: profile.id, text: 'New Arrival' })).toMatchObject({ state: 'ready', total: 0 });
  });
});

describe('job registry', () => {
  /** A registry whose events are recorded; `finished` resolves with the first job.finished, `allFinished(n)` once n have come. */
  function recordingRegistry() {
    const seen: BridgeEvent[] = [];
    const finishedEvents: JobFinished[] = [];
    const waiters: { count: number; resolve: (all: JobFinished[]) => void }[] = [];
    let next = 0;
    const jobs = createJobRegistry(
      (name, payload) => {
        seen.push({ name, payload } as BridgeEvent);
        if (name !== 'job.finished') return;
        finishedEvents.push(payload as JobFinished);
        for (const waiter of waiters) if (finishedEvents.length === waiter.count) waiter.resolve([...finishedEvents]);
      },
      () => `job-${(next += 1)}`,
    );
    const allFinished = (count: number) => new Promise<JobFinished[]>((resolve) => waiters.push({ count, resolve }));
    return { jobs, seen, finished: allFinished(1).then((all) => all[0]!), allFinished };
  }

  it('an unexpected error ends the job as failed INTERNAL, without its message', async () => {
    const { jobs, seen, finished } = recordingRegistry();
    const jobId = jobs.start('users.walk', async () => {
      throw new Error(`boom ${SECRET}`);
    });
    expect(jobId).toBe('job-1');
    expect(await finished).toMatchObject({ jobId: 'job-1', status: 'failed', error: { code: 'INTERNAL', outcome: 'unknown' } });
    expect(JSON.stringify(seen)).not.toContain('boom');
  });

  it('cancelAll stops every running job; each still ends with its own job.finished', async () => {
    const { jobs, allFinished } = recordingRegistry();
    const waitForAbort = (signal: AbortSignal) =>
      new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
    const both = allFinished(2);
    jobs.start('users.walk', ({ signal }) => waitForAbort(signal));
    jobs.start('users.walk', ({ signal }) => waitForAbort(signal));
    jobs.cancelAll();
    expect(await both).toEqual([
      { jobId: 'job-1', kind: 'users.walk', status: 'cancelled' },
      { jobId: 'job-2', kind: 'users.walk', status: 'cancelled' },
    ]);
    expect(jobs.cancel('job-1')).toBe(false);
  });

  it("gives the work its own job id, and names a batch run's batch when it is cancelled or fails", async () => {
    const { jobs, allFinished } = recordingRegistry();
    const both = allFinished(2);
    let seenId = '';
    const cancelled = jobs.start(
      'batch.run',
      ({ jobId, signal }) => {
        seenId = jobId;
        return new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      },
      { batchId: '20261122-200000-abcdef' },
    );
    const failed = jobs.start('batch.run', async () => Promise.reject(new PrivacyDeskError({ code: 'INTERNAL', message: 'journal' })), { batchId: '20261122-200001-abcdef' });
    expect(seenId).toBe(cancelled);
    jobs.cancel(cancelled);
    const byId = new Map((await both).map((finished) => [finished.jobId, finished]));
    expect(byId.get(cancelled)).toEqual({ jobId: cancelled, kind: 'batch.run', status: 'cancelled', batchId: '20261122-200000-abcdef' });
    expect(byId.get(failed)).toEqual({ jobId: failed, kind: 'batch.run', status: 'failed', batchId: '20261122-200001-abcdef', error: expect.objectContaining({ code: 'INTERNAL' }) });
  });

  it('settled waits for the running jobs of the kinds asked for, and only those', async () => {
    const { jobs } = recordingRegistry();
    const ends: Record<string, () => void> = {};
    const held = (name: string) => () => new Promise<never>((_resolve, reject) => (ends[name] = () => reject(new Error(name))));
    jobs.start('batch.run', held('run'));
    jobs.start('users.walk', held('walk'));
    let settled = false;
    const waiting = jobs.settled(['batch.run']).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    ends.run!();
    await waiting;
    expect(settled).toBe(true); // the walk still runs: it was not asked for
    expect(jobs.cancel('job-2')).toBe(true);
    ends.walk!();
    await jobs.settled(['users.walk', 'batch.run']);
    await jobs.settled([]); // nothing to wait for
  });

  it('work that completes despite a late cancel is reported as completed: the event tells what happened', async () => {
    const { jobs, finished } = recordingRegistry();
    let finishWork!: () => void;
    const jobId = jobs.start('users.walk', () => new Promise((resolve) => (finishWork = () => resolve({ users: 1, pages: 1, firstUids: ['a'] }))));
    expect(jobs.cancel(jobId)).toBe(true);
    finishWork();
    expect(await finished).toEqual({ jobId, kind: 'users.walk', status: 'completed', result: { users: 1, pages: 1, firstUids: ['a'] } });
  });
});
