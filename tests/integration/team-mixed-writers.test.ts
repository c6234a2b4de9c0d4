import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';
import { ensureBuiltCli } from '../cli/cli-harness';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';
import { startErasureGate, type ErasureGate } from './fixtures/erasure-gate';
import {
  chainProblems, groupOf, newDesktop, startAppHost, startBin, teamConnect, teamTrail, uidList, unlessEnded, type AppHost, type Desktop, type Ended, type Running, type TrailRow,
} from './team-mixed-harness';

/**
 * The team's desktops appending to one chain at once, as real processes on a real PostgreSQL server: built CLIs
 * running batches, and the app runtime (its loopback web host) erasing through its bridge, each from its own data
 * folder connected to the team database. A gate in front of the sandbox holds erasures until every process has one
 * under way, so they provably overlap (the order of events decides, never the clock). Then: the chain is one, numbered
 * without a gap, unforked, verified by `audit verify`; every uid erased once; every entry names who wrote it.
 */
const skip = pgSkipReason();

const range = (group: string, count: number) => Array.from({ length: count }, (_, i) => `${group}-${i}`);
const erasedOnce = (sandbox: RunningSandbox, uid: string) => sandbox.requestLog(uid).filter((r) => r.act === 'delete' && r.status >= 200 && r.status < 300).length;

describe.skipIf(skip !== null)('CLI batches and the app runtime appending to one team chain at once (processes, a real PostgreSQL server)', () => {
  let cluster: PgCluster;
  let sandbox: RunningSandbox;
  let gate: ErasureGate;
  let workDir: string;
  let appScript: string;
  /** What the gate holds, set by the test of the moment. */
  let hold: (uid: string) => boolean = () => false;
  const cleanup: Array<() => Promise<unknown> | unknown> = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'team-mixed-'));
    appScript = join(workDir, 'team-app-host.cjs');
    // One bundle of the web host and app runtime: it starts in plain Node at once, as fast as the built CLI.
    const bundling = build({
      entryPoints: [join(import.meta.dirname, 'fixtures', 'team-app-host.ts')], outfile: appScript, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning',
      external: ['pg-native', 'keytar'],
    });
    ensureBuiltCli();
    [cluster, sandbox] = await Promise.all([startPgCluster({ fsync: false }), startSandbox({ users: 0 }), bundling]);
    gate = await startErasureGate(sandbox.url, (uid) => hold(uid));
  }, 120_000);
  afterEach(async () => {
    hold = () => false;
    await gate?.release();
    for (const step of cleanup.splice(0).reverse()) await step();
  });
  afterAll(async () => {
    await gate?.close();
    await sandbox?.close();
    await cluster?.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  const addUsers = async (uids: readonly string[]) => {
    for (let at = 0; at < uids.length; at += 50) {
      const statuses = await Promise.all(
        uids.slice(at, at + 50).map(async (uid) => (await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) })).status),
      );
      expect(statuses.every((status) => status === 201)).toBe(true);
    }
  };
  const desktop = (name: string, passwordInEnv = true): Desktop => {
    const made = newDesktop(name, cluster, sandbox, passwordInEnv);
    cleanup.push(() => rmSync(made.dataDir, { recursive: true, force: true }));
    return made;
  };
  const service = () => ['--base-url', gate.url, '--app', sandbox.credentials.applicationName];
  const batch = (on: Desktop, uids: readonly string[], concurrency = 4): Running => {
    const run = startBin(on, ['batch', 'delete', uidList(workDir, uids), '--yes', `DELETE ${uids.length}`, '--json', '--no-logout-first', '--concurrency', String(concurrency), '--timeout', '120', ...service()]);
    cleanup.push(() => (run.child.exitCode === null && run.child.signalCode === null ? run.child.kill('SIGKILL') : undefined));
    return run;
  };
  const finishedBatch = (ended: Ended, total: number) => {
    expect(ended.code, ended.stderr).toBe(0);
    const summary = JSON.parse(ended.stdout) as { batchId: string; state: string; counts: { done: number } };
    expect(summary).toMatchObject({ state: 'finished', counts: { done: total } });
    return summary.batchId;
  };
  /** The console of a desktop: the app runtime connected to the team from its settings (the password typed there), with a service profile. */
  const appDesktop = async (name: string, databaseUrl: string): Promise<{ host: AppHost; profileId: string }> => {
    const host = await startAppHost(appScript, desktop(name, false));
    cleanup.push(() => host.close());
    const connected = await host.call('team.connect', { databaseUrl, password: cluster.password });
    expect(connected).toMatchObject({ ok: true, value: { mode: 'team', reachable: true } });
    const { apiKey, apiSecret, applicationName } = sandbox.credentials;
    const saved = await host.call('profiles.save', { name: 'Service', baseUrl: gate.url, applicationName, apiKey, apiSecret });
    if (!saved.ok) throw new Error(saved.error.message);
    return { host, profileId: saved.value.id as string };
  };
  /** Erasures through the app's bridge, two at a time as two operators of one console would; each must succeed. */
  const appErasures = async (app: { host: AppHost; profileId: string }, uids: readonly string[]) => {
    const lane = async (mine: readonly string[]) => {
      for (const uid of mine) {
        const erased = await app.host.call('users.erase', { profileId: app.profileId, action: 'delete', uid, confirmUid: uid, logoutFirst: false });
        expect(erased.ok, erased.ok ? uid : `${uid}: ${erased.error.message}`).toBe(true);
      }
    };
    await Promise.all([lane(uids.filter((_, i) => i % 2 === 0)), lane(uids.filter((_, i) => i % 2 === 1))]);
  };
  const verifyIn = async (on: Desktop, entries: number) => {
    const verified = await startBin(on, ['audit', 'verify', '--json']).ended;
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, entries });
  };
  const rowsOf = (rows: readonly TrailRow[], group: string) => rows.filter((row) => row.entry?.uid && groupOf(row.entry.uid) === group);

  it('7 CLI batches × 40 and 20 erasures from the app at once: one chain 1..n, no fork, verified; every uid erased once; each entry names desktop, operator and role', { timeout: 180_000 }, async () => {
    const url = await cluster.createDatabase('mixed_writers');
    const groups = Array.from({ length: 7 }, (_, w) => `cli${w}`);
    const lists = groups.map((group) => range(group, 40));
    const appUids = range('app', 20);
    await addUsers([...lists.flat(), ...appUids]);
    const desktops: Desktop[] = [];
    for (const group of groups) desktops.push(await teamConnect(desktop(group), url));
    const app = await appDesktop('app', url);

    // Every erasure waits at the gate until each of the 8 processes has one there: all are appending at once.
    let open = false;
    hold = () => !open;
    const runs = desktops.map((on, w) => batch(on, lists[w]!));
    const appDone = appErasures(app, appUids);
    await unlessEnded(gate.arrived((arrivals) => [...groups, 'app'].every((group) => arrivals.some((uid) => groupOf(uid) === group))), runs, [appDone]);
    open = true;
    await gate.release();
    const ended = await Promise.all(runs.map((run) => run.ended));
    await appDone;
    const batchIds = ended.map((end) => finishedBatch(end, 40));

    const rows = await teamTrail(cluster, url);
    expect(chainProblems(rows)).toEqual([]);
    await verifyIn(desktops[3]!, rows.length);
    // The console reads the team chain the same way.
    expect(await app.host.call('audit.verify', {})).toMatchObject({ ok: true, value: { ok: true, entries: rows.length } });
    // Before any erasure was answered, each process had committed its 'attempted' entry: the chain interleaves them.
    const firstDone = rows.findIndex((row) => row.entry?.action === 'delete' && row.entry.outcome === 'done');
    const attemptedBefore = new Set(rows.slice(0, firstDone).flatMap((row) => (row.entry?.outcome === 'attempted' ? [groupOf(row.entry.uid)] : [])));
    expect([...attemptedBefore].sort()).toEqual(['app', ...groups].sort());
    // Who wrote each entry: this computer, its OS user, the database role.
    const unnamed = rows.filter(({ entry, dbRole }) => entry?.desktop !== hostname() || entry.operator !== userInfo().username || entry.dbRole !== cluster.user || dbRole !== cluster.user);
    expect(unnamed.map((row) => row.seq)).toEqual([]);
    // Each uid: one attempt and one erasure in the trail, by the process that had it; and one erasure at the service.
    groups.forEach((group, w) => {
      const mine = rowsOf(rows, group);
      expect(new Set(mine.map((row) => `${row.entry!.via} ${row.entry!.jobId}`))).toEqual(new Set([`batch ${batchIds[w]}`]));
    });
    expect(new Set(rowsOf(rows, 'app').map((row) => row.entry!.via))).toEqual(new Set(['app']));
    // (The console checks a done erasure at once: that check's request is attempted, then its result recorded.)
    const stagesOf = (uid: string) => rows.filter((row) => row.entry?.uid === uid).map((row) => `${row.entry!.action} ${row.entry!.outcome}`);
    for (const uid of lists.flat()) expect(stagesOf(uid), uid).toEqual(['delete attempted', 'delete done']);
    for (const uid of appUids) expect(stagesOf(uid), uid).toEqual(['delete attempted', 'delete done', 'delete attempted', 'delete verification']);
    for (const uid of [...lists.flat(), ...appUids]) expect(erasedOnce(sandbox, uid), uid).toBe(1);
  });

  it('a CLI batch SIGKILLed mid-run while the others append: no gap, no torn entry, verified; resumed from another desktop at once, no uid erased twice', { timeout: 180_000 }, async () => {
    const url = await cluster.createDatabase('mixed_killed');
    const victimUids = range('victim', 60);
    const others = { one: range('one', 30), two: range('two', 30) };
    const appUids = range('console', 10);
    await addUsers([...victimUids, ...others.one, ...others.two, ...appUids]);
    const victimDesk = await teamConnect(desktop('victim'), url);
    const [oneDesk, twoDesk] = [await teamConnect(desktop('one'), url), await teamConnect(desktop('two'), url)];
    const app = await appDesktop('console', url);

    // Every process gets an erasure to the gate; then the victim alone goes on, and its 12th erasure kills it. The
    // others' erasures stay under way across the kill, and what the victim had in flight reaches the service after it.
    let phase: 'gather' | 'victim' | 'all' = 'gather';
    let victimPassed = 0;
    hold = (uid) => {
      if (phase === 'all') return false;
      if (phase === 'gather' || groupOf(uid) !== 'victim' || victimPassed >= 11) return true;
      victimPassed += 1;
      return false;
    };
    const victim = batch(victimDesk, victimUids, 2);
    const runs = [batch(oneDesk, others.one), batch(twoDesk, others.two)];
    const appDone = appErasures(app, appUids);
    await unlessEnded(gate.arrived((arrivals) => ['victim', 'one', 'two', 'console'].every((group) => arrivals.some((uid) => groupOf(uid) === group))), [victim, ...runs], [appDone]);
    phase = 'victim';
    await gate.release();
    await unlessEnded(gate.arrived((arrivals) => arrivals.filter((uid) => groupOf(uid) === 'victim').length >= 12), [victim, ...runs], [appDone]);
    victim.child.kill('SIGKILL');
    expect((await victim.ended).signal).toBe('SIGKILL');
    phase = 'all';
    await gate.release();
    const ended = await Promise.all(runs.map((run) => run.ended));
    ended.forEach((end) => finishedBatch(end, 30));
    await appDone;

    const rows = await teamTrail(cluster, url);
    expect(chainProblems(rows)).toEqual([]);
    await verifyIn(oneDesk, rows.length);
    // The others wrote on both sides of the killed writer's last entry.
    const victimLast = rowsOf(rows, 'victim').at(-1)!.seq;
    for (const group of ['one', 'two', 'console']) {
      const seqs = rowsOf(rows, group).map((row) => row.seq);
      expect(Math.min(...seqs), group).toBeLessThan(victimLast);
      expect(Math.max(...seqs), group).toBeGreaterThan(victimLast);
    }

    // Another desktop lists the job unfinished, run by nobody (its process is gone from this computer), and resumes it.
    const listed = await startBin(twoDesk, ['batch', 'list', '--json']).ended;
    expect(listed.code, listed.stderr).toBe(0);
    const job = (JSON.parse(listed.stdout) as { jobs: Array<{ batchId: string; state: string; holder?: unknown; counts: { unfinished: number } }> }).jobs.find((j) => j.state !== 'finished');
    expect(job).toMatchObject({ state: 'unfinished' });
    expect(job!.holder).toBeUndefined();
    const resumed = await startBin(twoDesk, ['batch', 'resume', job!.batchId, '--yes', `DELETE ${job!.counts.unfinished}`, '--json', '--timeout', '120', ...service()]).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    const result = JSON.parse(resumed.stdout) as { batchId: string; state: string; counts: Record<string, number> };
    expect(result).toMatchObject({ batchId: job!.batchId, state: 'finished', counts: { unfinished: 0, failed: 0, notFound: 0 } });
    // What the killed run had sent without its answer recorded (the gate forwarded it after the kill) was checked, not sent again.
    expect(result.counts.doneBeforeInterruption).toBeGreaterThanOrEqual(1);
    expect(result.counts.done! + result.counts.doneBeforeInterruption!).toBe(60);

    const after = await teamTrail(cluster, url);
    expect(chainProblems(after)).toEqual([]);
    await verifyIn(victimDesk, after.length);
    for (const uid of [...victimUids, ...others.one, ...others.two, ...appUids]) expect(erasedOnce(sandbox, uid), uid).toBe(1);
  });
});
