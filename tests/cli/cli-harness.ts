import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/server';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Distinctive, so a leak anywhere is unmistakable (HS512 needs >= 64 bytes). */
export const CLI_TEST_SECRET = 'cli-test-SECRET-do-not-print-7f3a9c1e5b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliFixture {
  sandbox: RunningSandbox;
  dataDir: string;
  /** Runs the real CLI as a child process with --base-url/--app appended and env credentials. */
  cli(args: string[], options?: { env?: Record<string, string | undefined>; connection?: boolean; viaBin?: boolean }): Promise<CliRun>;
  sandboxUser(uid: string): Promise<{ status: number; body: { state?: string; sessionCount?: number } | null }>;
  login(uid: string): Promise<void>;
  auditLines(): Array<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startCliFixture(users = 37): Promise<CliFixture> {
  const sandbox = await startSandbox({ users, apiSecret: CLI_TEST_SECRET });
  const dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-cli-'));
  const base = sandbox.url;

  const cli: CliFixture['cli'] = (args, options = {}) => {
    const connection = options.connection === false ? [] : ['--base-url', base, '--app', sandbox.credentials.applicationName];
    const env: Record<string, string | undefined> = {
      ...process.env,
      PRIVACY_DESK_DATA_DIR: dataDir,
      PRIVACY_DESK_API_KEY: sandbox.credentials.apiKey,
      PRIVACY_DESK_API_SECRET: sandbox.credentials.apiSecret,
      // Never reach for the developer's own keychain from these tests.
      PRIVACY_DESK_CREDENTIAL_STORE: 'session',
      NO_COLOR: '1',
      ...options.env,
    };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    return new Promise((resolve) => {
      // Asynchronous on purpose: the sandbox answers from this same process.
      const entry = options.viaBin ? ['bin/privacy-desk.js'] : ['--import', 'tsx', 'cli/main.ts'];
      execFile(process.execPath, [...entry, ...args, ...connection], { cwd: REPO_ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        // Whatever the command, the secret never shows.
        expect(stdout).not.toContain(CLI_TEST_SECRET);
        expect(stderr).not.toContain(CLI_TEST_SECRET);
        expect(`${stdout}${stderr}`).not.toMatch(/Bearer\s/);
        resolve({ code, stdout, stderr });
      });
    });
  };

  return {
    sandbox,
    dataDir,
    cli,
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

/** Reads every file under a folder and fails if the secret appears in any of them. */
export function assertSecretNowhereUnder(dir: string, secret: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) assertSecretNowhereUnder(path, secret);
    else expect(readFileSync(path, 'utf8'), `secret found in ${path}`).not.toContain(secret);
  }
}
