import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real PostgreSQL server for the team store's tests: a temporary cluster (initdb) on a free loopback port, started
 * and stopped with pg_ctl as an unprivileged user (the `postgres` account Debian's package creates, when the tests run
 * as root), password authentication over TCP, removed when stopped. Debian's `postgresql` package provides the
 * programs; `.ci/run` installs it. Where it is missing, `pgClusterUnavailable()` says why (the tests print it and skip).
 */
export interface PgCluster {
  /** postgres://USER@127.0.0.1:PORT/DB, without the password. */
  readonly url: string;
  readonly password: string;
  readonly port: number;
  readonly user: string;
  readonly database: string;
  /** Stops the server (fast shutdown: open connections are cut), keeping the cluster; `start()` brings it back. */
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
  /** A fresh database in the cluster (its url), so test files can share one cluster without sharing tables. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes the cluster. */
  destroy(): Promise<void>;
}

const USER = 'desk';
const PASSWORD = 'desk-test-password';

/** Where Debian keeps the server programs (/usr/lib/postgresql/<major>/bin), newest first. */
function binDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length > 0 ? join(root, majors[0]!, 'bin') : null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Why no cluster can be started here; null when one can. */
export function pgClusterUnavailable(): string | null {
  if (process.platform === 'win32') return 'PostgreSQL tests run on Linux and macOS only';
  if (!binDir()) return 'PostgreSQL server programs not found under /usr/lib/postgresql (Debian package `postgresql`; .ci/run installs it)';
  if (isRoot() && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root and no `postgres` account to run the server as';
  return null;
}

/** Runs a server program as the cluster's owner (postgres when we are root: the server refuses to run as root). */
function asOwner(program: string, args: readonly string[]) {
  const bin = join(binDir()!, program);
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, [...args]);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPgCluster(options: { fsync?: boolean } = {}): Promise<PgCluster> {
  const problem = pgClusterUnavailable();
  if (problem) throw new Error(problem);
  const dir = mkdtempSync(join(tmpdir(), 'pd-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, `${PASSWORD}\n`);
  if (isRoot()) {
    const owner = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(owner.stdout.trim()), Number(group.stdout.trim()));
    chownSync(pwfile, Number(owner.stdout.trim()), Number(group.stdout.trim()));
  }
  chmodSync(dir, 0o700);
  await asOwner('initdb', ['-D', data, '-U', USER, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c max_connections=120',
    // Tests measure behaviour, not durability of the test machine's disk; the bench keeps fsync on.
    ...(options.fsync === false ? ['-c fsync=off', '-c synchronous_commit=off'] : []),
  ].join(' ');
  const startServer = async () => {
    await asOwner('pg_ctl', ['-D', data, '-o', serverOptions, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  };
  const stopServer = async () => {
    await asOwner('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']).catch(() => undefined);
  };
  await startServer();
  const withPassword = { ...process.env, PGPASSWORD: PASSWORD };
  const psqlWithPassword = (sql: string) =>
    isRoot()
      ? run('runuser', ['-u', 'postgres', '--', 'env', `PGPASSWORD=${PASSWORD}`, join(binDir()!, 'psql'), '-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', sql])
      : run(join(binDir()!, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', USER, '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-c', sql], { env: withPassword });
  const createDatabase = async (name: string) => {
    if (!/^[a-z][a-z0-9_]{0,40}$/.test(name)) throw new Error(`bad database name ${name}`);
    await psqlWithPassword(`CREATE DATABASE ${name}`);
    return `postgres://${USER}@127.0.0.1:${port}/${name}`;
  };
  await createDatabase('desk');
  return {
    url: `postgres://${USER}@127.0.0.1:${port}/desk`,
    password: PASSWORD,
    port,
    user: USER,
    database: 'desk',
    stopServer,
    startServer,
    createDatabase,
    async destroy() {
      await stopServer();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Why the PostgreSQL tests skip here (printed once per file that asks), or null when they run. */
export function pgSkipReason(): string | null {
  const reason = pgClusterUnavailable();
  if (reason) console.warn(`PostgreSQL tests skipped: ${reason}`);
  return reason;
}
