import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

interface FindJson {
  text: string;
  total: number;
  usersSearched: number;
  pagesWalked: number;
  matches: Array<{ user: Record<string, unknown>; matched: Array<{ field: string; start: number; end: number; text: string }> }>;
}

describe('privacy-desk users find (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  let everyone: Array<{ uid: string | null; full_name: string | null; email: string | null }>;
  beforeAll(async () => {
    f = await startCliFixture(230);
    const all = JSON.parse((await f.cli(['users', 'list', '--all', '--json'])).stdout) as { users: typeof everyone; perPage: number };
    everyone = all.users;
    // Every full walk asks for the largest page the service allows, not the default 10.
    expect(all.perPage).toBe(100);
  });
  afterAll(() => f.close());

  it('finds a person on a later page by their name without its accents or capitals', async () => {
    const accented = everyone.slice(100).find((u) => u.full_name !== null && fold(u.full_name) !== u.full_name.toLowerCase());
    expect(accented, 'the sandbox seeds accented names').toBeDefined();
    const plain = fold(accented!.full_name!);
    const { code, stdout } = await f.cli(['users', 'find', plain, '--json']);
    expect(code).toBe(0);
    const found = JSON.parse(stdout) as FindJson;
    expect(found.usersSearched).toBe(230);
    expect(found.pagesWalked).toBe(3); // 100 users a page, not 10
    const match = found.matches.find((m) => m.user.uid === accented!.uid);
    expect(match?.matched).toContainEqual({ field: 'fullName', start: 0, end: accented!.full_name!.length, text: accented!.full_name });
  });

  it('prints a table saying what matched, and a line counting the matches', async () => {
    const someone = everyone.find((u) => u.email !== null && u.uid !== null)!;
    const { code, stdout } = await f.cli(['users', 'find', someone.email!.toUpperCase()]);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^UID\s+FULL NAME\s+EMAIL\s+CREATED\s+MATCHED$/);
    expect(stdout).toContain(`e-mail “${someone.email}”`);
    expect(lines.at(-1)).toMatch(new RegExp(`^1 user matches “${someone.email!.toUpperCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” among 230 users, 3 pages read\\.$`));
  });

  it('says plainly when nobody matches', async () => {
    const { code, stdout } = await f.cli(['users', 'find', 'zz-nobody-by-this-name-zz']);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('No user matches “zz-nobody-by-this-name-zz” among 230 users, 3 pages read.');
  });
});
