// The team store on a real PostgreSQL server (run through tsx by scripts/bench/parts/team.mjs): a temporary cluster
// with fsync on (tests/support/pg-cluster.ts's default: every commit reaches the disk, as on a team's server), then
// - writers: N processes (scripts/bench/probes/team-writer.mjs) appending M acts each into one chain at once; the
//   chain verified afterwards (core/team/pg-audit-log.ts verify), its gaps and forks counted in SQL;
// - paging: a trail of E entries made by the server (tests/support/audit-fill.ts: well-formed lines, NOT chained), read
//   as the console reads it (core/team/pg-audit-query.ts): first page, a uid, a reference, a day, a deep page; then
//   the console itself in Chromium on that trail (scripts/bench/probes/team-console.mjs).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { createPgAuditQuery } from '../../../core/team/pg-audit-query.ts';
import { openPgAuditLog } from '../../../core/team/pg-audit-log.ts';
import { openTeamDatabase } from '../../../core/team/team-database.ts';
import { parseTeamDatabaseUrl } from '../../../core/team/team-url.ts';
import { fillAuditTrail } from '../../../tests/support/audit-fill.ts';
import { pgClusterUnavailable, startPgCluster } from '../../../tests/support/pg-cluster.ts';
import { median } from '../median.mjs';
import { serveProbe } from '../probe-process.mjs';
import { measureTeamConsole } from './team-console.mjs';

const PAGE = 100;
const TIMES = 5;
let cluster;
let databases = 0;

async function openDatabase(name) {
  const url = await cluster.createDatabase(`${name}_${(databases += 1)}`);
  return { url, db: await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password, applicationName: 'privacy-desk-bench' }) };
}

function startWriter(url, writer, acts) {
  const child = fork(join(import.meta.dirname, 'team-writer.mjs'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_TEAM_URL: url, PRIVACY_DESK_DATABASE_PASSWORD: cluster.password, BENCH_TEAM_ACTS: String(acts), BENCH_TEAM_WRITER: String(writer) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`writer ${writer} ended (exit ${code})`)));
  });
  return { child, next };
}

/** ms of `task`, the median of TIMES runs (the first run warms the server's cache like every later one). */
async function timed(task) {
  const times = [];
  let answer;
  for (let run = 0; run < TIMES; run += 1) {
    const started = performance.now();
    answer = await task();
    times.push(performance.now() - started);
  }
  return { ms: median(times), answer };
}

serveProbe({
  async setup() {
    const skip = pgClusterUnavailable();
    if (skip) return { skip };
    cluster = await startPgCluster();
    return {};
  },

  async writers({ writers, acts }) {
    // Migrated once here, so the writers' start is a connection, not a schema upgrade.
    const { url, db } = await openDatabase('writers');
    try {
      const started = Array.from({ length: writers }, (_, index) => startWriter(url, index + 1, acts));
      await Promise.all(started.map((writer) => writer.next()));
      const begin = performance.now();
      const finished = started.map((writer) => writer.next());
      for (const writer of started) writer.child.send('go');
      await Promise.all(finished);
      const ms = performance.now() - begin;
      const verifying = performance.now();
      const verdict = await openPgAuditLog(db).verify();
      const verifyMs = performance.now() - verifying;
      const { rows } = await db.pool.query(`SELECT count(*)::int AS entries, coalesce(max(seq), 0)::int AS last,
          (SELECT count(*)::int FROM audit_entries AS later JOIN audit_entries AS earlier ON earlier.seq = later.seq - 1
            WHERE later.line::jsonb ->> 'prevHash' IS DISTINCT FROM earlier.hash) AS forks
        FROM audit_entries`);
      const { entries, last, forks } = rows[0];
      const expected = writers * acts * 2;
      if (entries !== expected) throw new Error(`${entries} entries written, ${expected} expected`);
      return { entriesPerS: entries / (ms / 1000), verifyMs, verified: verdict.ok && verdict.entries === expected ? 1 : 0, gaps: last - entries, forks };
    } finally {
      await db.close();
    }
  },

  async paging({ entries }) {
    const { url, db } = await openDatabase('paging');
    try {
      const filling = performance.now();
      await fillAuditTrail(db.pool, entries);
      const fillS = (performance.now() - filling) / 1000;
      const query = createPgAuditQuery(db);
      const page = (filter, cursor) => query.queryPage({ filter, cursor, limit: PAGE });
      const rssBefore = process.memoryUsage().rss;
      // A uid with 20 entries and a day 19 days before the newest of a full run's trail; ones a --tiny trail holds too.
      const full = entries >= 100_000;
      const first = await timed(() => page({}));
      const uid = await timed(() => page({ uid: full ? 'user-4242' : 'user-42' }));
      const reference = await timed(() => page({ reference: 'req-77' }));
      const oneDay = full ? '2025-01-20' : '2025-01-01';
      const day = await timed(() => page({ since: oneDay, until: oneDay }));
      const deep = await timed(() => page({}, 1_000));
      // Scrolling: 50 pages one after another, as the console asks them.
      let cursor;
      const scrolling = performance.now();
      for (let pages = 0; pages < 50; pages += 1) cursor = (await page({}, cursor)).nextCursor ?? undefined;
      const scrollMs = (performance.now() - scrolling) / 50;
      const empty = Object.entries({ uid, reference, day }).filter(([, measured]) => measured.answer.matched === 0).map(([name]) => name);
      if (first.answer.count?.value !== entries || deep.answer.matched !== PAGE || empty.length > 0) throw new Error(`a page did not hold what it should (${empty.join(', ') || 'first or deep'})`);
      const inConsole = await measureTeamConsole({ databaseUrl: url, password: cluster.password, uid: full ? 'user-4242' : 'user-42' });
      return {
        consoleOpenMs: inConsole.openMs,
        consoleNextPageMs: inConsole.nextPageMs,
        consoleFilterMs: inConsole.filterMs,
        consoleLongestTaskMs: inConsole.longestTaskMs,
        fillS,
        firstMs: first.ms,
        uidMs: uid.ms,
        referenceMs: reference.ms,
        dayMs: day.ms,
        deepMs: deep.ms,
        scrollMs,
        rssGrowthMb: Math.max(0, process.memoryUsage().rss - rssBefore) / 1024 / 1024,
      };
    } finally {
      await db.close();
    }
  },

  async teardown() {
    await cluster?.destroy();
    cluster = undefined;
    return {};
  },
});
