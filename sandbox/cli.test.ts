import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEFAULTS, startSandbox } from './server';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

function startCli(args: string[]): ChildProcessWithoutNullStreams {
  // detached: the child leads its own process group, so signals and cleanup reach tsx's node child too.
  return spawn('npx', ['tsx', 'sandbox/main.ts', ...args], { cwd: repoRoot, detached: true, env: { ...process.env, NO_COLOR: '1' } });
}

/** One process (no npx/tsx wrapper), so its exit code is the sandbox's own. */
function startCliDirect(args: string[]): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', ...args], { cwd: repoRoot, detached: true });
}

/**
 * Resolves once the process has ended and closed its output: every process that shared the pipe
 * (npx's and tsx's children too) has exited, so nothing of the sandbox is left to answer.
 */
function closed(child: ChildProcessWithoutNullStreams): Promise<void> {
  return new Promise((resolve) => child.once('close', () => resolve()));
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/sandbox/`);
    return true;
  } catch {
    return false;
  }
}

/** Collects stdout until `done` says enough, or the process ends. */
function readUntil(child: ChildProcessWithoutNullStreams, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      if (done(text)) {
        child.stdout.off('data', onData);
        resolve(text);
      }
    };
    child.stdout.on('data', onData);
    child.once('exit', () => (done(text) ? resolve(text) : reject(new Error(`sandbox exited early; stdout so far:\n${text}`))));
  });
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('npm run sandbox (sandbox/main.ts)', () => {
  const started: ChildProcessWithoutNullStreams[] = [];
  afterEach(() => {
    for (const child of started.splice(0)) {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  });

  it('prints the four Label: value lines, logs requests without secrets, and stops on SIGTERM', async () => {
    const child = startCli(['--port', '0', '--users', '20']);
    started.push(child);
    const banner = await readUntil(child, (text) => text.includes('Application name:'));
    const lines = banner.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^URL: http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.slice(1)).toEqual([
      `API key: ${SANDBOX_DEFAULTS.apiKey}`,
      `Secret key: ${SANDBOX_DEFAULTS.apiSecret}`,
      `Application name: ${SANDBOX_DEFAULTS.applicationName}`,
    ]);

    const url = lines[0]!.slice('URL: '.length);
    const logged = readUntil(child, (text) => text.includes('/anonymize'));
    const list = await fetch(`${url}/api/v1/users?api_key=${SANDBOX_DEFAULTS.apiKey}&per_page=2`, { headers: { authorization: 'Bearer abc' } });
    expect(list.status).toBe(200);
    await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DEFAULTS.apiKey, client_secret: SANDBOX_DEFAULTS.apiSecret }),
    });
    await fetch(`${url}/api/v1/users/team%2Flead/anonymize`, { method: 'POST', headers: { authorization: 'Bearer some-token-value' } });
    const log = await logged;
    expect(log).toMatch(/^GET \/api\/v1\/users\?api_key=\[redacted\]&per_page=2 200 \d+ms$/m);
    expect(log).toMatch(/^POST \/oauth\/token 200 \d+ms$/m);
    expect(log).toMatch(/^POST \/api\/v1\/users\/team%2Flead\/anonymize 401 \d+ms$/m);
    expect(log).not.toContain(SANDBOX_DEFAULTS.apiSecret);
    expect(log).not.toContain('some-token-value');
    expect(log).not.toMatch(/api_key=sandbox-api-key/);

    const stopping = readUntil(child, (text) => text.includes('Stopping the sandbox (SIGTERM).'));
    const ended = closed(child);
    process.kill(-child.pid!, 'SIGTERM');
    await stopping;
    await ended;
    expect(await answers(url)).toBe(false);
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('stops cleanly with exit code 0 on %s', async (signal) => {
    const child = startCliDirect(['--port', '0', '--users', '5']);
    started.push(child);
    const banner = await readUntil(child, (text) => text.includes('Application name:'));
    const url = /^URL: (\S+)$/m.exec(banner)?.[1] ?? '';
    expect((await fetch(`${url}/sandbox/`)).status).toBe(200);
    const ended = closed(child);
    child.kill(signal);
    expect(await exitCode(child)).toBe(0);
    await ended;
    expect(await answers(url)).toBe(false);
  });

  it.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--error-rate', '2'], /--error-rate must be a number from 0 to 1/],
    [['--list-variant', 'xml'], /--list-variant must be one of/],
    [['--logout-error-status', '500'], /--logout-error-status must be 400 or 422/],
    [['--bogus'], /Unknown option '--bogus'/],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    const child = startCliDirect(args);
    started.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    expect(await exitCode(child)).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('Usage: npm run sandbox');
  });

  it('says plainly when the port is taken (exit 1)', async () => {
    const holder = await startSandbox({ users: 1 });
    try {
      const child = startCliDirect(['--port', new URL(holder.url).port, '--users', '1']);
      started.push(child);
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      expect(await exitCode(child)).toBe(1);
      expect(stderr).toMatch(/already in use.*--port/);
    } finally {
      await holder.close();
    }
  });

  it('--help prints the usage and exits 0', async () => {
    const child = startCliDirect(['--help']);
    started.push(child);
    const text = await readUntil(child, (t) => t.includes('--logout-error-status'));
    expect(text).toContain('--list-variant');
    expect(await exitCode(child)).toBe(0);
  });
});
