import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { runBatchCli, sandboxUids, uidFile } from './batch-harness';

const WORDS = 'delete 3: 2 done, 1 not found, 0 failed, 0 unfinished (finished)';

describe('a batch run’s summary in audit list and audit export (in-process CLI)', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(5);
    const two = (await sandboxUids(f)).slice(0, 2);
    const run = await runBatchCli(f, ['batch', 'delete', uidFile([...two, 'nobody-has-this-uid']), '--yes', 'DELETE 3', '--json']);
    expect(run.code, run.stderr).toBe(0);
  });
  afterAll(() => f.close());
  const audit = (args: string[]) => f.cli(['audit', ...args], { connection: false });

  it('audit list --operation batch keeps the summary, with its counts in words', async () => {
    const { code, stdout, stderr } = await audit(['list', '--operation', 'batch']);
    expect(stderr).not.toMatch(/Allowed choices/);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(` batch +summary: ${WORDS.replace(/[()]/g, '\\$&')} `));
    expect(stdout).toContain('1 entry\n');
  });

  it('audit list --outcome summary is accepted and keeps the same entry', async () => {
    const { code, stdout } = await audit(['list', '--outcome', 'summary', '--json']);
    expect(code).toBe(0);
    const { entries } = JSON.parse(stdout) as { entries: Array<{ action: string; batch: { total: number; done: number; notFound: number } }> };
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'batch', batch: { total: 3, done: 2, notFound: 1 } });
  });

  it('audit export --format csv carries the counts in the batchSummary column', async () => {
    const { code, stdout } = await audit(['export', '--format', 'csv', '--operation', 'batch']);
    expect(code).toBe(0);
    const rows = Papa.parse<Record<string, string>>(stdout.trim(), { header: true }).data;
    // The last row states the chain's verdict, not an entry.
    expect(rows.map((row) => row.batchSummary)).toEqual([WORDS, '']);
    expect(rows.at(-1)).toMatchObject({ operation: 'chain-verdict', stage: 'verified' });
  });
});
