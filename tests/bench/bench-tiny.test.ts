import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { FIGURES } from '../../scripts/bench/figures.mjs';
import { REPO_ROOT } from '../cli/cli-harness';

const execFileAsync = promisify(execFile);

// `npm run bench` is not a test (its figures depend on the machine); this runs its --tiny form, a few items of
// every part, so the suite cannot rot unseen. It asserts only that every figure was measured: no timing decides.
describe('the benchmark suite (npm run bench --tiny)', () => {
  let dir: string | undefined;
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('runs every part and writes every figure as a finite number', async () => {
    dir = await mkdtemp(join(tmpdir(), 'privacy-desk-bench-test-'));
    const out = join(dir, 'results.json');
    // About 20 s on an idle two-core machine; far more beside the rest of npm test.
    await execFileAsync(process.execPath, ['scripts/bench.mjs', '--tiny', '--out', out], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
    const figures = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
    const required = Object.keys(FIGURES).filter((key) => !FIGURES[key]?.optional);
    expect(required.filter((key) => !(key in figures))).toEqual([]);
    expect(Object.entries(figures).filter(([, value]) => typeof value !== 'number' || !Number.isFinite(value))).toEqual([]);
  }, 180_000);
});
