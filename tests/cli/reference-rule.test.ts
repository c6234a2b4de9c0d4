import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

/**
 * One rule for a reference wherever it is typed (shared/reference.ts): a control character or an invisible format
 * character (a bidi override, a zero-width space) is refused before anything is sent — a single act, a logout, a
 * batch's reference and each line's own reference — so the trail never records "REQ\u202Eevil" drawn as "REQlive".
 */
describe('references with characters nobody would see are refused before anything is sent', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
  });
  afterAll(() => f.close());

  it('a single erasure and a logout: exit 2, INVALID_INPUT naming the character and where, nothing sent, nothing in the trail', async () => {
    const before = f.sandbox.stats();
    const erase = await f.cli(['users', 'delete', 'user-000003', '--confirm', 'user-000003', '--reference', 'REQ\u0007bell\u202Eevil']);
    expect(erase.code).toBe(2);
    expect(erase.stderr).toMatch(/^INVALID_INPUT: .*The reference holds an invisible or control character \(U\+0007, character 4\)/m);
    const logout = await f.cli(['logout', 'user-000003', '--reference', 'REQ-1\u202Eevil']);
    expect(logout.code).toBe(2);
    expect(logout.stderr).toMatch(/^INVALID_INPUT: .*\(RLO, U\+202E, character 6\)/m);
    expect(f.sandbox.stats()).toMatchObject({ apiRequests: before.apiRequests, logoutRequests: before.logoutRequests });
    expect(f.auditLines()).toEqual([]);
  });

  it('a batch: the line whose own reference holds one is invalid with that reason, and a batch reference holding one is refused', async () => {
    const file = join(f.dataDir, 'refs.csv');
    writeFileSync(file, 'uid,reference\nuser-000001,DSR-1\nuser-000002,DSR\u200b2\n');
    const dry = await f.cli(['batch', 'delete', file, '--reference-column', 'reference']);
    expect(dry.stdout).toMatch(/valid uids: +1 \(1 with their own reference\)/);
    expect(dry.stdout).toMatch(/invalid lines: +1 /);
    expect(dry.stdout).toContain('line 3: The reference holds an invisible or control character (ZWSP, U+200B, character 4)');

    const whole = await f.cli(['batch', 'delete', file, '--reference', 'REQ\u2066x']);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(/invisible or control character \(LRI, U\+2066, character 4\)/);
    expect(f.auditLines()).toEqual([]);
  });
});
