import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli, REPO_ROOT, runBin, startCliFixture, type CliFixture } from './cli-harness';

// The rest of tests/cli runs the CLI in-process; these few start it the way a user does,
// for what only a real process shows: exit codes, and what lands on stdout and stderr.
describe('the built privacy-desk command (child processes)', () => {
  let f: CliFixture;
  const bin = (args: string[], options?: Parameters<CliFixture['spawn']>[2]) => runBin(f, args, options);
  const uids = (stdout: string) => (JSON.parse(stdout) as { users: Array<{ uid: string }> }).users.map((user) => user.uid);

  beforeAll(async () => {
    ensureBuiltCli();
    f = await startCliFixture(12);
  }, 60_000);
  afterAll(() => f?.close());

  it('--version prints package.json’s version, injected at build time', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await bin(['--version'], { connection: false })).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('users list --json: exit 0, stdout is one JSON document, stderr is empty', async () => {
    const { code, stdout, stderr } = await bin(['users', 'list', '--per-page', '3', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(uids(stdout)).toHaveLength(3);
  });

  it('a mismatching --confirm: exit 2, nothing on stdout, the error and the outcome on stderr', async () => {
    const { code, stdout, stderr } = await bin(['users', 'delete', 'alice@example.org', '--confirm', 'alice']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^CONFIRMATION_MISMATCH: [^\n]+\nOutcome: not sent — nothing reached the service\.\n$/);
  });

  it('a refusal by the service: exit 1', async () => {
    const { code, stderr } = await bin(['users', 'anonymize', 'no-such-user', '--confirm', 'no-such-user']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^NOT_FOUND: [^\n]+\nOutcome: refused by the service — nothing was changed\.\n$/);
  });

  it('an irreversible act whose outcome is unknown: exit 3', async () => {
    f.sandbox.setFaults({ errorRate: 1 });
    try {
      const { code, stderr } = await bin(['logout', 'alice@example.org']);
      expect(code).toBe(3);
      expect(stderr).toMatch(/^SERVER_ERROR: [^\n]+\nOutcome: UNKNOWN — /);
    } finally {
      f.sandbox.setFaults({ errorRate: 0 });
    }
  });

  // The README's commands for piping JSON (npm prints its "> privacy-desk@… cli" banner on stdout unless silent).
  it('npm run --silent cli -- … --json prints JSON alone on stdout', async () => {
    const { code, stdout } = await f.spawn('npm', ['run', '--silent', 'cli', '--', 'users', 'list', '--per-page', '2', '--json']);
    expect(code).toBe(0);
    expect(uids(stdout)).toHaveLength(2);
  }, 60_000);

  it('npx privacy-desk … --json runs this project’s own bin and prints JSON alone on stdout', async () => {
    const { code, stdout } = await f.spawn('npx', ['privacy-desk', 'users', 'list', '--per-page', '2', '--json']);
    expect(code).toBe(0);
    expect(uids(stdout)).toHaveLength(2);
  }, 60_000);
});
