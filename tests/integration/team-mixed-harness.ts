import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { expect } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { chainAnchor, entryHash } from '../../core/audit-chain';
import type { AuditEntry } from '../../shared/audit';
import type { RunningSandbox } from '../../sandbox/server';
import { REPO_ROOT } from '../cli/cli-harness';
import type { PgCluster } from '../support/pg-cluster';

/**
 * Desktops of one team for team-mixed-writers.test.ts: each a data folder `team connect`ed to one database, whose
 * processes (the built CLI, the app runtime behind its loopback web host) reach the service through a gate.
 */
export interface Desktop {
  name: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  ended: Promise<Ended>;
}

/**
 * A new data folder (a desktop) reaching the sandbox with its keys from the environment and no keychain; the database
 * password in PRIVACY_DESK_DATABASE_PASSWORD unless `passwordInEnv` is false (the console keeps the one typed).
 */
export function newDesktop(name: string, cluster: PgCluster, sandbox: RunningSandbox, passwordInEnv = true): Desktop {
  const dataDir = mkdtempSync(join(tmpdir(), `team-mixed-${name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PRIVACY_DESK_DATA_DIR: dataDir,
    PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
    PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
    PRIVACY_DESK_CREDENTIAL_STORE: 'session',
    PRIVACY_DESK_DATABASE_PASSWORD: cluster.password,
    NO_COLOR: '1',
  };
  if (!passwordInEnv) delete env.PRIVACY_DESK_DATABASE_PASSWORD;
  return { name, dataDir, env };
}

/** The desktop's data folder connected to the team database by `privacy-desk team connect` (in this process: the command, not the concurrency, is under test here). */
export async function teamConnect(desktop: Desktop, databaseUrl: string): Promise<Desktop> {
  let said = '';
  const code = await runCli(['team', 'connect', '--database-url', databaseUrl], {
    stdout: { write: (text: string) => (said += text) },
    stderr: { write: (text: string) => (said += text) },
    stdin: Readable.from([]),
    env: desktop.env,
  });
  expect(code, said).toBe(0);
  return desktop;
}

/** The built bin (bin/privacy-desk.js) as a child process of a desktop, the way a user or a script starts it. */
export function startBin(desktop: Desktop, args: string[]): Running {
  const child = spawn(process.execPath, ['bin/privacy-desk.js', ...args], { cwd: REPO_ROOT, env: desktop.env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, ended: collect(child) };
}

function collect(child: ChildProcess): Promise<Ended> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A file of uids, one a line, in a folder of its own under `dir` (outside any data folder). */
export function uidList(dir: string, uids: readonly string[]): string {
  const path = join(mkdtempSync(join(dir, 'input-')), 'uids.txt');
  writeFileSync(path, `${uids.join('\n')}\n`);
  return path;
}

export type BridgeAnswer = { ok: true; value: Record<string, unknown> } | { ok: false; error: { code: string; message: string } };

export interface AppHost extends Running {
  call(method: string, input: unknown): Promise<BridgeAnswer>;
  /** Ends the host (its stdin closes) and waits for it to exit. */
  close(): Promise<Ended>;
}

/** The app runtime in its own process (fixtures/team-app-host.ts, bundled), on a desktop's data folder; ready once its bridge answers. */
export async function startAppHost(script: string, desktop: Desktop): Promise<AppHost> {
  const child = spawn(process.execPath, [script, desktop.dataDir], { env: desktop.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const ended = collect(child);
  const first = new Promise<{ origin: string; token: string }>((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const line = text.split('\n', 2);
      if (line.length === 2) resolve(JSON.parse(line[0]!) as { origin: string; token: string });
    });
    void ended.then((end) => reject(new Error(`the app host ended before it was ready (${end.code ?? end.signal}): ${end.stderr}`)));
  });
  const { origin, token } = await first;
  return {
    child,
    ended,
    async call(method, input) {
      const response = await fetch(`${origin}/bridge/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': token }, body: JSON.stringify(input) });
      expect(response.status, method).toBe(200);
      return (await response.json()) as BridgeAnswer;
    },
    close() {
      child.stdin.end();
      return ended;
    },
  };
}

export interface TrailRow {
  seq: number;
  line: string;
  hash: string;
  dbRole: string;
  entry: AuditEntry | null;
}

/** The team trail as stored, oldest first, each line parsed where it parses. */
export async function teamTrail(cluster: PgCluster, databaseUrl: string): Promise<TrailRow[]> {
  const client = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: cluster.user, password: cluster.password, database: new URL(databaseUrl).pathname.slice(1) });
  await client.connect();
  try {
    const { rows } = await client.query<{ seq: string; line: string; hash: string; db_role: string }>('SELECT seq, line, hash, db_role FROM audit_entries ORDER BY seq');
    return rows.map((row) => ({ seq: Number(row.seq), line: row.line, hash: row.hash, dbRole: row.db_role, entry: parsed(row.line) }));
  } finally {
    await client.end();
  }
}

function parsed(line: string): AuditEntry | null {
  try {
    return JSON.parse(line) as AuditEntry;
  } catch {
    return null;
  }
}

/**
 * What is wrong with the chain as stored, checked row by row apart from the product's own verify: numbered 1..n
 * without a gap, every line whole (it parses, and hashes to its row's hash), each linked to the row before it (no fork).
 */
export function chainProblems(rows: readonly TrailRow[]): string[] {
  const problems: string[] = [];
  rows.forEach((row, k) => {
    if (row.seq !== k + 1) problems.push(`row ${k + 1} has seq ${row.seq}: a gap`);
    const entry = row.entry;
    if (!entry) return void problems.push(`seq ${row.seq}: a torn line`);
    if (entry.seq !== row.seq) problems.push(`seq ${row.seq}: its line says seq ${entry.seq}`);
    if (entryHash(entry) !== row.hash) problems.push(`seq ${row.seq}: its line does not hash to its row's hash`);
    const before = k === 0 ? chainAnchor(entry.chainId ?? '') : rows[k - 1]!.hash;
    if (entry.prevHash !== before) problems.push(`seq ${row.seq}: prevHash is not the hash of the entry before it (a fork)`);
  });
  return problems;
}

/** The uid's group in these tests: the part before its first dash (one group per writing process). */
export const groupOf = (uid: string): string => uid.split('-', 1)[0]!;

/**
 * `waiting`, unless one of `runs` ends first, or one of `busy` (work that cannot finish before it) settles first:
 * then the test fails at once with what that process said, rather than waiting for its own time limit.
 */
export function unlessEnded<T>(waiting: Promise<T>, runs: readonly Running[], busy: ReadonlyArray<Promise<unknown>> = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.then(resolve, reject);
    for (const run of runs) void run.ended.then((end) => reject(new Error(`a process ended too soon (${end.code ?? end.signal}): ${end.stderr.slice(0, 2000)}`)));
    for (const work of busy) work.then(() => reject(new Error('work meant to be held at the gate finished before it')), reject);
  });
}
