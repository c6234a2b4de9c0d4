import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../support/pdf-text';
import { startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk audit receipt (in-process CLI against the sandbox)', () => {
  let f: CliFixture;
  const receipt = (args: string[]) => f.cli(['audit', 'receipt', ...args], { connection: false });

  beforeAll(async () => {
    f = await startCliFixture(20);
    for (const uid of ['alice@example.org', 'jean dupont']) {
      expect((await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--reference', 'REQ-77'])).code).toBe(0);
    }
    expect((await f.cli(['users', 'delete', 'team/lead', '--confirm', 'team/lead', '--reference', 'REQ-78'])).code).toBe(0);
  });
  afterAll(() => f.close());

  it('writes the PDF with --output: both uids, the reference, the outcome and the head hash read back from it', async () => {
    const output = join(f.dataDir, 'receipt-REQ-77.pdf');
    const { code, stdout, stderr } = await receipt(['--reference', 'REQ-77', '--output', output]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const verify = await f.cli(['audit', 'verify', '--json'], { connection: false });
    const headHash = (JSON.parse(verify.stdout) as { headHash: string }).headHash;
    expect(stdout).toBe(`Receipt for 2 acts written to ${output}; head hash of the chain: ${headHash}.\n`);
    expect(statSync(output).mode & 0o777).toBe(0o600);

    const { text } = await pdfText(readFileSync(output));
    expect(text).toContain('REQ-77');
    expect(text).toContain('alice@example.org');
    expect(text).toContain('jean dupont');
    expect(text).not.toContain('team/lead');
    expect(text).toContain('Done — the service confirmed it');
    expect(text).toContain(headHash);
    expect(text).toContain('the command line');
  });

  it('--act and --lang fr: one act, in French', async () => {
    const list = await f.cli(['audit', 'list', '--reference', 'REQ-78', '--json'], { connection: false });
    const actId = (JSON.parse(list.stdout) as { entries: Array<{ actId: string }> }).entries[0]?.actId as string;
    const output = join(f.dataDir, 'receipt-act.pdf');
    const { code } = await receipt(['--act', actId, '--lang', 'fr', '--output', output]);
    expect(code).toBe(0);
    const { text } = await pdfText(readFileSync(output));
    expect(text).toContain('team/lead');
    expect(text).toContain(actId);
    expect(text).toContain('Effectuée — le service l’a confirmée');
    expect(text).not.toContain('alice@example.org');
  });

  it('without a subject, or with both, is a usage error (exit 2) that says what to give; an unknown reference exits 1 and writes nothing', async () => {
    const none = await receipt(['--output', join(f.dataDir, 'none.pdf')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^INVALID_INPUT: Say what the receipt covers: --reference REF .* or --act ACT_ID/);
    const both = await receipt(['--reference', 'REQ-77', '--act', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either --reference or --act, not both/);

    const missing = join(f.dataDir, 'missing.pdf');
    const unknown = await receipt(['--reference', 'NOPE-1', '--output', missing]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^NOT_FOUND: No act in the audit trail carries the reference “NOPE-1”/);
    expect(existsSync(missing)).toBe(false);
  });
});
