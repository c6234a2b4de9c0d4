import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

// Oversized or deeply nested logout options are validation errors, refused before the gate.
describe('privacy-desk logout refuses oversized options before anything is sent', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
  });
  afterAll(() => f.close());

  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  for (const [what, args] of [
    ['5,000 levels of nesting in a claim', ['--claim', `deep=${deep(5000)}`]],
    ['a 1 MB audience', ['--aud', 'a'.repeat(1_000_000)]],
    ['5 KB of claims', ['--claim', `blob=${'x'.repeat(5000)}`]],
  ] as const) {
    it(`${what}: exit 2, INVALID_INPUT, nothing sent and nothing audited`, async () => {
      const before = f.auditLines().length;
      const { code, stderr, stdout } = await f.cli(['logout', 'alice@example.org', ...args]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/^INVALID_INPUT: The logout token options are not valid/);
      expect(stderr).not.toMatch(/RangeError|INTERNAL/);
      expect(stderr.length).toBeLessThan(2000);
      expect(stdout).toBe('');
      expect(f.auditLines()).toHaveLength(before);
    });
  }
});

// `logout conformance` is a subcommand, so a user whose uid is spelled "conformance" is named with --uid.
describe('privacy-desk logout names its user once, as an argument or with --uid', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
  });
  afterAll(() => f.close());

  it('logs out a uid spelled like the subcommand when given with --uid', async () => {
    const { code, stderr } = await f.cli(['logout', '--uid', 'conformance']);
    expect(stderr).not.toMatch(/required option|--uid <uid>' not specified/);
    expect(code).not.toBe(2);
    expect(f.auditLines().filter((entry) => entry.action === 'logout' && entry.uid === 'conformance').map((entry) => entry.outcome)).toContain('attempted');
  });

  it('refuses no uid, or a uid given twice, before anything is sent', async () => {
    const before = f.auditLines().length;
    const none = await f.cli(['logout']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/missing the user's uid/);
    const twice = await f.cli(['logout', 'alice@example.org', '--uid', 'bob@example.org']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/the uid is given twice/);
    expect(f.auditLines()).toHaveLength(before);
  });
});
