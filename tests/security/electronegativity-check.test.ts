import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm test` runs scripts/check-electronegativity.mjs itself (npm run check:electron); this
// proves that check can fail: an unlisted finding and a stale exception both exit 1 and say which.
const ROOT = join(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'check-electronegativity.mjs');
let work: string;
let listed: { id: string; file: string; reason: string }[];

function check(exceptions: unknown): Promise<{ status: number | null; output: string }> {
  const file = join(work, `exceptions-${Math.random().toString(36).slice(2)}.json`);
  return writeFile(file, JSON.stringify(exceptions)).then(() => {
    const run = spawnSync(process.execPath, [SCRIPT, '--exceptions', file], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  });
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'privacy-desk-electronegativity-check-'));
  listed = (JSON.parse(await readFile(join(ROOT, 'security', 'electronegativity-exceptions.json'), 'utf8')) as { exceptions: typeof listed }).exceptions;
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('scripts/check-electronegativity.mjs', () => {
  it('fails on a finding the exceptions file does not list, and on an exception that matches nothing', async () => {
    const [dropped, ...kept] = listed;
    expect(dropped, 'there is at least one listed exception to drop').toBeDefined();
    const stale = { id: 'REMOTE_MODULE_JS_CHECK', file: 'electron/main.ts', reason: 'no such finding' };
    const { status, output } = await check({ exceptions: [...kept, stale] });
    expect(status).toBe(1);
    expect(output).toContain(`Unlisted finding: ${dropped!.id} in ${dropped!.file}`);
    expect(output).toContain(`Stale exception (no such finding any more, remove it): ${stale.id} in ${stale.file}`);
  }, 90_000);

  it('refuses an exception without a one-line reason', async () => {
    const { status, output } = await check({ exceptions: listed.map((entry, index) => (index === 0 ? { ...entry, reason: 'two\nlines' } : entry)) });
    expect(status).toBe(1);
    expect(output).toContain('one-line reason');
  }, 90_000);
});
