import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { expect } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { CLI_TEST_SECRET, type CliFixture, type CliRun } from './cli-harness';

export interface BatchRunOptions {
  /** What standard input holds (a list for FILE "-", or the answer typed at the prompt). */
  stdin?: string;
  /** stdin and stderr are terminals (the prompt, the progress bar). */
  tty?: boolean;
  /** Press Ctrl-C (the io's interrupt listener) when stderr first shows text matching this. */
  interruptWhen?: RegExp;
}

/** The CLI in-process, like the fixture's `cli`, with a chosen stdin, terminal or not, and Ctrl-C. */
export async function runBatchCli(f: CliFixture, args: string[], options: BatchRunOptions = {}): Promise<CliRun & { interrupted: boolean }> {
  let stdout = '';
  let stderr = '';
  let listener: (() => void) | undefined;
  let interrupted = false;
  const stdin = options.tty ? Object.assign(new PassThrough(), { isTTY: true }) : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  if (options.tty && options.stdin !== undefined) (stdin as PassThrough).end(options.stdin);
  const code = await runCli([...args, ...f.connectionArgs()], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        if (!interrupted && listener && options.interruptWhen?.test(stderr)) {
          interrupted = true;
          // A signal arrives between turns of the event loop, never in the middle of a write.
          setImmediate(listener);
        }
      },
      ...(options.tty ? { isTTY: true, columns: 160 } : {}),
    },
    stdin,
    env: batchEnv(f),
    onInterrupt: (added) => {
      listener = added;
      return () => {
        if (listener === added) listener = undefined;
      };
    },
  });
  expect(`${stdout}${stderr}`).not.toContain(CLI_TEST_SECRET);
  return { code, stdout, stderr, interrupted };
}

/** The fixture's environment: its data folder, the sandbox's keys, no keychain. */
export function batchEnv(f: CliFixture): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PRIVACY_DESK_DATA_DIR: f.dataDir,
    PRIVACY_DESK_API_KEY: f.sandbox.credentials.apiKey,
    PRIVACY_DESK_API_SECRET: f.sandbox.credentials.apiSecret,
    PRIVACY_DESK_CREDENTIAL_STORE: 'session',
    NO_COLOR: '1',
  };
}

/** A file of uids, one a line, in a folder of its own (never the data folder). */
export function uidFile(lines: string[], name = 'uids.txt'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'privacy-desk-batch-input-')), name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Every uid the sandbox starts with, in its order. */
export async function sandboxUids(f: CliFixture): Promise<string[]> {
  const { code, stdout } = await f.cli(['users', 'list', '--all', '--json']);
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { users: Array<{ uid: string }> }).users.map((user) => user.uid);
}

/** Erasure requests (anonymise or delete) that reached the sandbox for a uid. */
export function erasuresSent(f: CliFixture, uid: string): number {
  return f.sandbox.requestLog(uid).filter((request) => request.act !== 'logout').length;
}
