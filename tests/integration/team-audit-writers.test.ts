import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgAuditLog } from '../../core/team/pg-audit-log';
import { openTeamDatabase, type TeamDatabase } from '../../core/team/team-database';
import { parseTeamDatabaseUrl } from '../../core/team/team-url';
import { pgSkipReason, startPgCluster, type PgCluster } from '../support/pg-cluster';

const writerSource = join(import.meta.dirname, 'fixtures', 'team-audit-writer.ts');
const linkTo = (lastLine: string | null) => `after ${createHash('sha256').update(lastLine ?? '').digest('hex').slice(0, 16)}`;

interface Writer {
  child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  ready: Promise<void>;
  exit: Promise<number | null>;
  /** Resolves once the writer says it has committed `n` entries. */
  committed(n: number): Promise<void>;
}

function startWriter(script: string, url: string, password: string, id: number, count: number): Writer {
  const child = spawn(process.execPath, [script, url, String(id), String(count)], { env: { ...process.env, PRIVACY_DESK_DATABASE_PASSWORD: password } });
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const writer: Writer = { child, stdout: '', stderr: '', ready: Promise.resolve(), exit: Promise.resolve(null), committed: (n) => new Promise((resolve) => waiting.push({ n, resolve })) };
  writer.ready = new Promise((ready, failed) => {
    child.stdout.on('data', (chunk: Buffer) => {
      writer.stdout += chunk.toString();
      if (writer.stdout.includes('ready\n')) ready();
      const numbers = writer.stdout.match(/^\d+$/gm);
      const last = numbers ? Number(numbers[numbers.length - 1]) : 0;
      for (const wait of waiting.filter((w) => w.n <= last)) wait.resolve();
    });
    child.once('exit', () => failed(new Error(`writer ${id} ended before it was ready: ${writer.stderr}`)));
  });
  writer.ready.catch(() => undefined);
  child.stderr.on('data', (chunk: Buffer) => (writer.stderr += chunk.toString()));
  writer.exit = once(child, 'exit').then(([code]) => code as number | null);
  return writer;
}

type Row = { seq: number; uid: string; profileId: string; reference?: string; line: string };

const skip = pgSkipReason();

describe.skipIf(skip !== null)('desktops writing to one team chain at once (separate processes, a real PostgreSQL server)', () => {
  let cluster: PgCluster;
  let workDir: string;
  let script: string;
  let databases = 0;
  const opened: TeamDatabase[] = [];
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'team-writers-'));
    script = join(workDir, 'team-audit-writer.cjs');
    // One bundle of the real core modules and pg: each writer starts in plain Node at once, so they really overlap.
    const bundling = build({ entryPoints: [writerSource], outfile: script, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', external: ['pg-native'] });
    [cluster] = await Promise.all([startPgCluster({ fsync: false }), bundling]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.close().catch(() => undefined)));
    await cluster?.destroy();
    rmSync(workDir, { recursive: true, force: true });
  });

  const freshDatabase = async () => {
    const url = await cluster.createDatabase(`writers_${++databases}`);
    const db = await openTeamDatabase(parseTeamDatabaseUrl(url), { password: cluster.password });
    opened.push(db);
    return { url, db };
  };
  const rowsOf = async (db: TeamDatabase): Promise<Row[]> => {
    const { rows } = await db.pool.query<{ seq: string; line: string }>('SELECT seq, line FROM audit_entries ORDER BY seq');
    return rows.map((row) => ({ ...(JSON.parse(row.line) as Omit<Row, 'line'>), seq: Number(row.seq), line: row.line }));
  };

  it('8 writers × 250 entries make one chain: numbered 1..2,000 without a gap, no fork, each writer’s entries in its order, verified', { timeout: 120_000 }, async () => {
    const { url, db } = await freshDatabase();
    const writers = Array.from({ length: 8 }, (_, id) => startWriter(script, url, cluster.password, id, 250));
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.child.stdin.end('go\n');
    const codes = await Promise.all(writers.map((w) => w.exit));
    expect(writers.map((w) => w.stderr)).toEqual(writers.map(() => ''));
    expect(codes).toEqual(writers.map(() => 0));

    const rows = await rowsOf(db);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, k) => k + 1));
    expect(rows).toHaveLength(2_000);
    for (let w = 0; w < 8; w++) {
      expect(rows.filter((row) => row.profileId === `writer-${w}`).map((row) => row.uid)).toEqual(Array.from({ length: 250 }, (_, i) => `w${w}-e${i}`));
    }
    // An entry built from the last line read it under the chain's lock: the line really before it in the chain.
    const forks = rows.filter((row, k) => row.reference !== undefined && row.reference !== linkTo(k === 0 ? null : (rows[k - 1] as Row).line));
    expect(forks).toEqual([]);
    // Writers interleaved: the chain is not one writer after another.
    expect(new Set(rows.slice(0, 400).map((row) => row.profileId)).size).toBeGreaterThan(1);
    expect(await openPgAuditLog(db).verify()).toMatchObject({ ok: true, entries: 2_000 });
  });

  it('a writer killed mid-stream leaves no gap and no torn entry: what it committed stays, the others go on after it', { timeout: 120_000 }, async () => {
    const { url, db } = await freshDatabase();
    const victim = startWriter(script, url, cluster.password, 0, 1_000_000);
    const others = [1, 2, 3].map((id) => startWriter(script, url, cluster.password, id, 200));
    await Promise.all([victim, ...others].map((w) => w.ready));
    for (const w of [victim, ...others]) w.child.stdin.end('go\n');
    await victim.committed(100);
    victim.child.kill('SIGKILL');
    expect(await victim.exit).toBeNull();
    const codes = await Promise.all(others.map((w) => w.exit));
    expect(codes).toEqual([0, 0, 0]);

    const rows = await rowsOf(db);
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, k) => k + 1));
    const killed = rows.filter((row) => row.profileId === 'writer-0').map((row) => row.uid);
    // Whole transactions only: the first n of its entries, n at least what it said was committed.
    expect(killed).toEqual(Array.from({ length: killed.length }, (_, i) => `w0-e${i}`));
    expect(killed.length).toBeGreaterThanOrEqual(100);
    expect(rows).toHaveLength(killed.length + 600);
    expect(await openPgAuditLog(db).verify()).toMatchObject({ ok: true, entries: rows.length });
    // The chain goes on after it: a new entry from this process follows the last one.
    await openPgAuditLog(db).append({ at: new Date().toISOString(), action: 'delete', uid: 'after-the-kill', profileId: 'p', profileName: 'P', baseUrl: 'https://p', outcome: 'done', via: 'app' });
    expect(await openPgAuditLog(db).verify()).toMatchObject({ ok: true, entries: rows.length + 1 });
  });
});
