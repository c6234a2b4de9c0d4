import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';
import { runBatchCli, uidFile } from './batch-harness';

/** A CSV saved by a French Excel: semicolons, a BOM, CRLF line ends (`uid;référence` / `user-000070;DSR-1` / `user-000071;DSR-2`). */
const EXCEL_FR = fileURLToPath(new URL('../integration/fixtures/excel-fr.csv', import.meta.url));

/**
 * How the CLI reads a batch file: a semicolon CSV is CSV with its columns, never a list whose header row
 * becomes a uid; lines that look like rows of columns are not sent whole as uids; --separator chooses.
 */
describe('privacy-desk batch: the separator of a CSV file', () => {
  let f: CliFixture;
  beforeAll(async () => {
    f = await startCliFixture(80);
  });
  afterAll(() => f.close());

  it('reads the French Excel file as CSV separated by semicolons, with its columns: 2 uids, no header among them', async () => {
    const { code, stdout } = await f.cli(['batch', 'delete', EXCEL_FR, '--reference-column', 'référence', '--check', '--dry-run']);
    expect(code).toBe(0);
    expect(stdout).toContain('(CSV, semicolon-separated, columns “uid”, “référence”):');
    expect(stdout).toMatch(/^ {2}valid uids: +2 \(2 with their own reference\)$/m);
    expect(stdout).toContain('uids read from:      column “uid” (index 0)');
    expect(stdout).toContain('Checked against the service (80 users read): 2 of 2 uids exist, 0 do not.');
    expect(stdout).toContain('first:        “user-000070”, “user-000071”');
    expect(stdout).not.toContain('uid;');
  });

  it('runs it: both users are deleted under their own references', async () => {
    const { code } = await runBatchCli(f, ['batch', 'delete', EXCEL_FR, '--reference-column', 'référence', '--yes', 'DELETE 2', '--no-logout-first']);
    expect(code).toBe(0);
    expect((await f.sandboxUser('user-000070')).body?.state).toBe('deleted');
    expect((await f.sandboxUser('user-000071')).body?.state).toBe('deleted');
    const done = f.auditLines().filter((line) => line.via === 'batch' && line.outcome === 'done');
    expect(done.map((line) => [line.uid, line.reference])).toEqual(
      expect.arrayContaining([
        ['user-000070', 'DSR-1'],
        ['user-000071', 'DSR-2'],
      ]),
    );
  });

  it('refuses rows of columns it would read as a list (exit 2, nothing sent), and says how to choose', async () => {
    const rows = uidFile(['DSR-3;user-000072', 'DSR-4;user-000073'], 'rows.csv');
    const before = f.sandbox.stats().apiRequests;
    const { code, stdout, stderr } = await f.cli(['batch', 'delete', rows, '--yes', 'DELETE 2']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^INVALID_INPUT: Read as a list \(one uid a line\), 2 of 2 lines hold a semicolon \(;\) \(the first, line 1: “DSR-3;user-000072”\)/m);
    expect(stderr).toContain('--separator semicolon');
    expect(stderr).toContain('--separator none');
    expect(stdout).not.toContain('valid uids');
    expect(f.sandbox.stats().apiRequests).toBe(before);
  });

  it('--separator semicolon with --column reads those rows; --separator none reads each line whole', async () => {
    const rows = uidFile(['DSR-3;user-000072', 'DSR-4;user-000073'], 'rows.csv');
    const split = await f.cli(['batch', 'delete', rows, '--separator', 'semicolon', '--column', '1', '--reference-column', '0', '--dry-run']);
    expect(split.code).toBe(0);
    expect(split.stdout).toContain('(CSV, semicolon-separated):');
    expect(split.stdout).toContain('first:        “user-000072”, “user-000073”');
    const whole = await f.cli(['batch', 'delete', rows, '--separator', 'none', '--dry-run']);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toContain('(a list, one uid a line)');
    expect(whole.stdout).toContain('first:        “DSR-3;user-000072”, “DSR-4;user-000073”');
    const wrong = await f.cli(['batch', 'delete', rows, '--separator', 'pipe', '--dry-run']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--separator takes comma, semicolon, tab or none/);
  });
});
