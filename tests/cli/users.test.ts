import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOMES, type Outcome } from '../../shared/errors';
import { REPO_ROOT, startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk users list (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(37);
  });
  afterAll(() => f.close());

  it('prints an aligned table with a page footer', async () => {
    const { code, stdout } = await f.cli(['users', 'list', '--per-page', '10']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+FULL NAME\s+EMAIL\s+CREATED\s+MESSAGES\s+VOTES$/);
    expect(lines[1]).toMatch(/^-+( +-+){5}$/);
    expect(lines).toHaveLength(2 + 10 + 1);
    expect(lines.at(-1)).toBe('page 1 of 4, 37 users');
    // Aligned: every row's CREATED column starts where the header's does (rows of plain-ASCII width).
    const createdAt = lines[0]!.indexOf('CREATED');
    const asciiRows = lines.slice(2, 12).filter((line) => /^[\x20-\x7e]*$/.test(line));
    expect(asciiRows.length).toBeGreaterThan(0);
    for (const row of asciiRows) expect(row.slice(createdAt, createdAt + 10)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('--json prints raw records and the page facts', async () => {
    const { code, stdout, stderr } = await f.cli(['users', 'list', '--page', '2', '--per-page', '10', '--json']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const page = JSON.parse(stdout) as { users: Array<Record<string, unknown>>; page: number; perPage: number; total: number; totalPages: number; hasNext: boolean };
    expect(page).toMatchObject({ page: 2, perPage: 10, total: 37, totalPages: 4, hasNext: true });
    expect(page.users).toHaveLength(10);
    expect(Object.keys(page.users[0]!)).toEqual(expect.arrayContaining(['id', 'uid', 'hash_id', 'full_name', 'email', 'messages_count', 'votes_count', 'created_at']));
  });

  it('--all walks every page and prints every user once', async () => {
    const { code, stdout } = await f.cli(['users', 'list', '--all', '--per-page', '10', '--json']);
    expect(code).toBe(0);
    const all = JSON.parse(stdout) as Record<string, unknown> & { users: Array<{ id: number }> };
    expect(all.users).toHaveLength(37);
    expect(new Set(all.users.map((u) => u.id)).size).toBe(37);
    // Honest about what it is: every page walked, not "page 1 of 1".
    expect(all).toEqual({ users: all.users, total: 37, pagesWalked: 4, perPage: 10 });
  });

  it('accepts the connection options before the command too', async () => {
    const connection = ['--base-url', f.sandbox.url, '--app', f.sandbox.credentials.applicationName];
    const { code, stdout, stderr } = await f.cli([...connection, 'users', 'list', '--per-page', '2', '--json'], { connection: false });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as { users: unknown[] }).users).toHaveLength(2);
  });

  it('refuses bad paging input with exit 2 before sending anything', async () => {
    const before = f.sandbox.stats().apiRequests;
    const tooMany = await f.cli(['users', 'list', '--per-page', '500']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/^INVALID_INPUT: --per-page must be between 1 and 100/);
    const notNumber = await f.cli(['users', 'list', '--page', 'two']);
    expect(notNumber.code).toBe(2);
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('names the missing environment variable (exit 2) and never takes a secret as an option', async () => {
    const missing = await f.cli(['users', 'list'], { env: { PRIVACY_DESK_API_SECRET: undefined } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^INVALID_INPUT: --base-url and --app take their credentials from the environment: set PRIVACY_DESK_API_SECRET to the secret key \(/);
    expect(missing.stderr).not.toMatch(/API key/);
    expect(missing.stderr).not.toMatch(/PRIVACY_DESK_API_KEY and/);
    const asOption = await f.cli(['users', 'list', '--api-secret', 'x']);
    expect(asOption.code).toBe(2);
    expect(asOption.stderr).toMatch(/unknown option '--api-secret'/);
  });

  it('without any connection and no profile, explains both ways (exit 2)', async () => {
    const { code, stderr } = await f.cli(['users', 'list'], { connection: false });
    expect(code).toBe(2);
    expect(stderr).toMatch(/--profile NAME/);
    expect(stderr).toMatch(/--base-url URL --app NAME/);
  });

  it('wrong credentials: exit 1 with INVALID_CREDENTIALS', async () => {
    const { code, stderr } = await f.cli(['users', 'list'], { env: { PRIVACY_DESK_API_SECRET: 'wrong-secret-value-1234567890' } });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^INVALID_CREDENTIALS: /);
    expect(stderr).not.toContain('wrong-secret-value-1234567890');
  });

  it('with --json, a failure is JSON on stdout too; listing changes nothing, so no Outcome line', async () => {
    const { code, stdout, stderr } = await f.cli(['users', 'list', '--json'], { env: { PRIVACY_DESK_API_SECRET: 'wrong-secret-value-1234567890' } });
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; outcome: Outcome } };
    expect(error.code).toBe('INVALID_CREDENTIALS');
    expect(OUTCOMES).toContain(error.outcome);
    // The error, then where --base-url's address and keys come from; no Outcome line.
    expect(stderr).toMatch(/^INVALID_CREDENTIALS: [^\n]*\nThis command used no profile: [^\n]*\n$/);
  });

  it('--version prints the package version and --help ends with the exit codes', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await f.cli(['--version'], { connection: false })).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await f.cli(['users', 'delete', '--help'], { connection: false });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes:\n  0  done\n  1  failed: refused by the service, an error, or a check that found a problem\n     (token verify: the token is not valid — checked locally, nothing is sent;\n     audit verify: the trail is broken; logout --negative: the service\n     ACCEPTED the broken token)\n  2  usage or validation error: nothing was sent\n  3  anonymize, delete or logout: the outcome is UNKNOWN');
  });
});
