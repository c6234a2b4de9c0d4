import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

/** Characters a terminal would draw as nothing or obey (reorder what follows): none may be printed raw. */
const UNSEEN = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069\u061C\uFEFF]/;

describe('names and e-mails from the service in the CLI’s tables', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
    const response = await fetch(`${f.sandbox.url}/sandbox/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ uid: 'evil-user', full_name: 'Admin\u202Egpj.exe\u200B Admin', email: 'a\u200Bb@example.org' }),
    });
    expect(response.status).toBe(201);
  });
  afterAll(() => f.close());

  it.each([
    ['users list', ['users', 'list', '--per-page', '10']],
    ['users find', ['users', 'find', 'admin']],
  ])('%s prints an e-mail with a zero-width space, and a name with a bidi override, escaped and quoted', async (_name, args) => {
    const { code, stdout } = await f.cli(args);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(UNSEEN);
    const row = stdout.split('\n').find((line) => line.startsWith('evil-user'));
    expect(row, stdout).toBeDefined();
    // Never the clean-looking ab@example.org: the quoted, escaped form says exactly what is there.
    expect(row).toContain('"a\\u200bb@example.org"');
    expect(row).toContain('"Admin\\u202egpj.exe\\u200b Admin"');
  });
});
