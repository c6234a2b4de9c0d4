import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditStore } from '../../core/audit-store';
import { createErasureFeed } from '../../core/erasure-feed';
import { openGatedConnection } from '../../core/service/erasure-gate';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import type { FetchLike } from '../../core/types';
import type { RunningSandbox } from '../../sandbox/server';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { startTcpCutProxy, type TcpCutProxy } from './fixtures/tcp-cut-proxy';
import { failure, inspectUser, recordingFetch, useSandbox } from './helpers';

const skip = pgSkipReason();

/** The gate as the app has it, writing to `audit` (the team trail). */
function gateOn(audit: AuditStore, sandbox: RunningSandbox, fetch?: FetchLike) {
  const options = {
    profile: { id: 'sandbox', name: 'Sandbox', baseUrl: sandbox.url, applicationName: sandbox.credentials.applicationName },
    credentials: { apiKey: sandbox.credentials.apiKey, apiSecret: sandbox.credentials.apiSecret },
    sleep: async () => {},
    ...(fetch ? { fetch } : {}),
  };
  return openGatedConnection(options, { audit, via: 'app', operator: 'dpo', appVersion: 'test' }).gate;
}

const stateOf = async (sandbox: RunningSandbox, uid: string) => (await inspectUser(sandbox, uid))?.state;
const short = (entries: ReadonlyArray<{ uid: string; outcome: string }>) => entries.map((e) => `${e.uid}:${e.outcome}`);
const UNREACHABLE = /^The audit trail postgres:\/\/desk@127\.0\.0\.1:\d+\/\w+ could not be written: the team database could not be reached \((ECONNREFUSED|ECONNRESET)[^)]*\)\. Nothing was sent: no act happens without its audit record\. Check that the team database’s server is running and reachable \(privacy-desk team status\), then try again\./;

describe.skipIf(skip !== null)('the team audit trail when the database goes away (a real PostgreSQL server and the sandbox)', () => {
  const sandbox = useSandbox({ users: 60 });
  let cluster: PgCluster;
  let count = 0;
  const opened: TeamDatabase[] = [];
  let proxy: TcpCutProxy | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster({ fsync: false });
  }, 60_000);
  afterAll(async () => cluster?.destroy());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close().catch(() => undefined)));
    await proxy?.close();
    proxy = undefined;
  });

  /** A team database of its own; through a proxy that can cut the network when asked. */
  const teamTrail = async (options: { throughProxy?: boolean; queryTimeoutMs?: number } = {}) => {
    const address = parseTeamDatabaseUrl(await cluster.createDatabase(`faults_${++count}`));
    if (options.throughProxy) proxy = await startTcpCutProxy(cluster.port);
    const db = await openTeamDatabase(proxy ? { ...address, port: proxy.port, display: address.display.replace(`:${cluster.port}/`, `:${proxy.port}/`) } : address, {
      password: cluster.password,
      connectTimeoutMs: 2_000,
      ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}),
    });
    opened.push(db);
    return openPgAuditLog(db);
  };

  it('server stopped before an act: the act is not sent, in words, and the user is still there', { timeout: 60_000 }, async () => {
    const store = await teamTrail();
    const recorder = recordingFetch();
    await cluster.stopServer();
    try {
      const error = await failure(gateOn(store, sandbox.current, recorder.fetch).erase({ action: 'delete', uid: 'alice@example.org', confirmUid: 'alice@example.org' }));
      expect(error).toMatchObject({ outcome: 'not-sent' });
      expect(error.message).toMatch(UNREACHABLE);
      expect(error.text?.params?.failure).toMatchObject({ id: 'audit.cannotWrite', params: { why: { id: 'team.why.unreachable' } } });
      expect(recorder.apiRequests()).toEqual([]);
      expect(store.pendingCount).toBe(0);
    } finally {
      await cluster.startServer();
    }
    expect(await stateOf(sandbox.current, 'alice@example.org')).toBe('active');
    expect(await store.verify()).toMatchObject({ ok: true, entries: 0 });
  });

  it('network cut while an erasure is under way: the act is done, its outcome kept and written once the network is back', { timeout: 60_000 }, async () => {
    const store = await teamTrail({ throughProxy: true });
    const uid = 'bob+news@example.org';
    // The cable is pulled the moment the erasure leaves: its 'attempted' entry is committed, its outcome cannot be.
    const recorder = recordingFetch((request) => {
      if (request.method !== 'GET' && request.url.includes('/api/v1/users/')) proxy?.cut();
      return request;
    });
    const error = await failure(gateOn(store, sandbox.current, recorder.fetch).erase({ action: 'delete', uid, confirmUid: uid }));
    expect(error).toMatchObject({ outcome: 'done', code: 'AUDIT_WRITE_FAILED' });
    expect(error.message).toMatch(/the team database could not be reached/);
    expect(await stateOf(sandbox.current, uid)).toBe('deleted');
    expect(short(store.pendingEntries())).toEqual([`${uid}:done`]);
    expect(await store.flushPending()).toBe(1);

    proxy?.restore();
    expect(await store.flushPending()).toBe(0);
    const reading = await store.read();
    // The logout sent first (its outcome written before the cut), then the deletion, whose outcome came late.
    expect(reading.entries.map((e) => `${e.action}:${e.outcome}`)).toEqual(['logout:attempted', 'logout:done', 'delete:attempted', 'delete:done']);
    expect(reading.outcomeMissing).toEqual([]);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 4 });
  });

  it('network cut before an act: nothing is sent', { timeout: 60_000 }, async () => {
    const store = await teamTrail({ throughProxy: true });
    await store.append({ at: new Date().toISOString(), action: 'delete', uid: 'earlier', profileId: 'p', profileName: 'P', baseUrl: 'https://p', outcome: 'done', via: 'app' });
    proxy?.cut();
    const recorder = recordingFetch();
    const error = await failure(gateOn(store, sandbox.current, recorder.fetch).erase({ action: 'anonymize', uid: 'alice@example.org', confirmUid: 'alice@example.org' }));
    expect(error).toMatchObject({ outcome: 'not-sent' });
    expect(error.message).toMatch(UNREACHABLE);
    expect(recorder.apiRequests()).toEqual([]);
    expect(await stateOf(sandbox.current, 'alice@example.org')).toBe('active');
  });

  it('a network that drops packets silently before an act: the entry times out, and nothing is sent', { timeout: 60_000 }, async () => {
    const store = await teamTrail({ throughProxy: true, queryTimeoutMs: 1_000 });
    await store.append({ at: new Date().toISOString(), action: 'delete', uid: 'earlier', profileId: 'p', profileName: 'P', baseUrl: 'https://p', outcome: 'done', via: 'app' });
    proxy?.stall();
    const recorder = recordingFetch();
    const error = await failure(gateOn(store, sandbox.current, recorder.fetch).erase({ action: 'anonymize', uid: 'alice@example.org', confirmUid: 'alice@example.org' }));
    expect(error).toMatchObject({ outcome: 'not-sent' });
    expect(error.message).toMatch(/could not be written: the team database could not be reached \(Query read timeout\)\. Nothing was sent/);
    expect(recorder.apiRequests()).toEqual([]);
    expect(await stateOf(sandbox.current, 'alice@example.org')).toBe('active');
    proxy?.restore();
  });

  it('server stopped while a batch’s outcomes are written: they are kept, nothing more is sent, and they are written once it is back', { timeout: 60_000 }, async () => {
    const store = await teamTrail();
    const batch = gateOn(store, sandbox.current).openBatch({ jobId: 'job-1', action: 'anonymize', logoutFirst: false });
    const attempts = await batch.admit([{ uid: 'alice@example.org' }, { uid: 'bob+news@example.org' }, { uid: 'nobody-here' }]);
    for (const attempt of attempts) await attempt.send();
    await cluster.stopServer();
    try {
      const summary = { operation: 'anonymize', total: 3, done: 2, doneBeforeInterruption: 0, notFound: 1, failed: 0, unfinished: 0, ended: 'finished' } as const;
      await expect(batch.flush(summary)).rejects.toMatchObject({ code: 'TEAM_STORE_UNAVAILABLE', outcome: 'not-sent' });
      expect(short(store.pendingEntries())).toEqual(['alice@example.org:done', 'bob+news@example.org:done', 'nobody-here:refused', ':summary']);
      // The next item is not sent: its 'attempted' entry cannot be committed.
      await expect(batch.admit([{ uid: 'carol@example.org' }])).rejects.toMatchObject({ outcome: 'not-sent', message: expect.stringMatching(/the team database could not be reached/) });
    } finally {
      await cluster.startServer();
    }
    expect(await stateOf(sandbox.current, 'carol@example.org')).not.toBe('anonymized');
    expect(await store.flushPending()).toBe(0);
    const reading = await store.read();
    expect(short(reading.entries)).toEqual([
      'alice@example.org:attempted',
      'bob+news@example.org:attempted',
      'nobody-here:attempted',
      'alice@example.org:done',
      'bob+news@example.org:done',
      'nobody-here:refused',
      ':summary',
    ]);
    expect(reading.outcomeMissing).toEqual([]);
    expect(reading.verdict).toMatchObject({ ok: true, entries: 7 });
  });

  it('the erasure feed waits out a stopped server (nothing, no error), then goes on where it stopped', { timeout: 60_000 }, async () => {
    const store = await teamTrail();
    const feed = createErasureFeed({ source: store.feed() });
    const entry = (uid: string) => ({ at: new Date().toISOString(), action: 'delete' as const, uid, profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', outcome: 'done' as const, via: 'cli' as const });
    await store.append(entry('first'));
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['first']);
    await cluster.stopServer();
    try {
      expect(await feed.poll()).toEqual({ erasures: [], lostTrack: false });
    } finally {
      await cluster.startServer();
    }
    await store.append(entry('second'));
    expect((await feed.poll()).erasures.map((e) => e.uid)).toEqual(['second']);
  });
});
