import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuiltCli, startCliFixture, type CliFixture } from './cli-harness';

/** Two processes (as the app and a CLI command would) adding to one register at once: no line lost, torn or numbered twice. */
describe('request register, two writers at once', () => {
  let f: CliFixture;
  beforeAll(async () => {
    ensureBuiltCli();
    f = await startCliFixture(3);
  });
  afterAll(() => f.close());

  it('keeps every request, numbered once each, and verify vouches for every event', async () => {
    const writer = (name: string) =>
      f.spawn('bash', ['-c', `for i in 1 2 3 4 5; do node bin/privacy-desk.js requests add --received 2026-03-03T09:00:00+01:00 --action delete --uid ${name}-$i || exit 1; done`], { connection: false });
    const runs = await Promise.all([writer('first'), writer('second')]);
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const lines = readFileSync(join(f.dataDir, 'requests.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.event)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(lines.map((line) => line.request)).size).toBe(10);
    const verified = await f.cli(['audit', 'verify'], { connection: false });
    expect(verified.code, verified.stdout).toBe(0);
    expect(verified.stdout).toMatch(/^Request register: verified, 10 events/m);
  }, 120_000);
});
