import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Distinctive, so a leak anywhere is unmistakable (HS512 needs >= 64 bytes). */
export const CLI_TEST_SECRET = 'cli-test-SECRET-do-not-print-7f3a9c1e5b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a';

/** Brings dist/cli/main.js (what bin/privacy-desk.js runs) up to date with the sources; nothing to do after `npm run build`. */
export function ensureBuiltCli(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs', '--if-stale'], { cwd: REPO_ROOT, stdio: 'pipe' });
}

/** The built bin as a child process, the way a user starts it. */
export function runBin(f: CliFixture, args: string[], options?: CliRunOptions): Promise<CliRun> {
  return f.spawn(process.execPath, ['bin/privacy-desk.js', ...args], options);
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliRunOptions {
  /** Changes to the environment; undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** Append --base-url/--app for the fixture's sandbox (default true). */
  connection?: boolean;
}

export interface CliFixture {
  sandbox: RunningSandbox;
  dataDir: string;
  /** Runs the CLI in-process (runCli) with env credentials and, unless told otherwise, --base-url/--app appended. */
  cli(args: string[], options?: CliRunOptions): Promise<CliRun>;
  /** Runs a command as a child process (the built bin, npm…) with the same environment; for exit codes and stdio. */
  spawn(command: string, args: string[], options?: CliRunOptions): Promise<CliRun>;
  connectionArgs(): string[];
  sandboxUser(uid: string): Promise<{ status: number; body: { state?: string; sessionCount?: number } | null }>;
  login(uid: string): Promise<void>;
  auditLines(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startCliFixture(users = 37): Promise<CliFixture> {
  const sandbox = await startSandbox({ users, apiSecret: CLI_TEST_SECRET });
  const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-cli-'));
  const base = sandbox.url;
  const connectionArgs = () => ['--base-url', base, '--app', sandbox.credentials.applicationName];

  const environment = (changes: CliRunOptions['env'] = {}): NodeJS.ProcessEnv => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      PRIVACY_DESK_DATA_DIR: dataDir,
      PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
      PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
      // Never reach for the developer's own keychain from these tests.
      PRIVACY_DESK_CREDENTIAL_STORE: 'session',
      NO_COLOR: '1',
      ...changes,
    };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    return env;
  };
  const withConnection = (args: string[], options: CliRunOptions) => (options.connection === false ? args : [...args, ...connectionArgs()]);

  const cli: CliFixture['cli'] = async (args, options = {}) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(withConnection(args, options), {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      // Not a terminal, and nothing to read: as in a script.
      stdin: Readable.from([]),
      env: environment(options.env),
    });
    return assertNoSecret({ code, stdout, stderr });
  };

  const spawn: CliFixture['spawn'] = (command, args, options = {}) =>
    new Promise((resolve) => {
      // Asynchronous on purpose: the sandbox answers from this same process.
      execFile(command, withConnection(args, options), { cwd: REPO_ROOT, env: environment(options.env), timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve(assertNoSecret({ code, stdout, stderr }));
      });
    });

  return {
    sandbox,
    dataDir,
    cli,
    spawn,
    connectionArgs,
    async sandboxUser(uid) {
      const response = await fetch(`${base}/sandbox/users/${encodeURIComponent(uid)}`);
      return { status: response.status, body: response.status === 200 ? ((await response.json()) as { state?: string; sessionCount?: number }) : null };
    },
    async login(uid) {
      const response = await fetch(`${base}/sandbox/users/${encodeURIComponent(uid)}/login`, { method: 'POST' });
      expect(response.status).toBe(200);
    },
    auditLines() {
      let text: string;
      try {
        text = readFileSync(join(dataDir, 'audit.jsonl'), 'utf8');
      } catch {
        return [];
      }
      return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async close() {
      assertSecretNowhereUnder(dataDir, CLI_TEST_SECRET);
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Whatever the command, the secret and any bearer token never show. */
function assertNoSecret(run: CliRun): CliRun {
  expect(run.stdout).not.toContain(CLI_TEST_SECRET);
  expect(run.stderr).not.toContain(CLI_TEST_SECRET);
  expect(`${run.stdout}${run.stderr}`).not.toMatch(/Bearer\s/);
  return run;
}

/** Reads every file under a folder and fails if the secret appears in any of them. */
export function assertSecretNowhereUnder(dir: string, secret: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) assertSecretNowhereUnder(path, secret);
    else expect(readFileSync(path, 'utf8'), `secret found in ${path}`).not.toContain(secret);
  }
}
