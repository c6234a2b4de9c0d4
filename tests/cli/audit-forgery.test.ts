import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { entryHash, startChain, linkAfter, type ChainedShape } from '../../core/audit-chain';
import { openAuditLog } from '../../core/audit-log';
import type { AuditEntry } from '../../shared/audit';
import { pdfText } from '../support/pdf-text';

/**
 * Lines without a place in the hash chain ("legacy": no format, no seq, no link) are not evidence by themselves.
 * Only a genuine prefix — the lines that were in the file when the chain started, which the chain's first entry
 * records (their count and SHA-256) — may stand before the chain; anything else is a break, and a receipt never
 * presents an unchained entry as verified.
 */

const entry = (uid: string, outcome: AuditEntry['outcome'], extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at: '2026-11-22T18:00:00.000+01:00',
  actId: `act-${uid}`,
  action: 'delete',
  outcome,
  uid,
  profileId: 'p1',
  profileName: 'Production',
  baseUrl: 'https://debate.example.org',
  via: 'cli',
  operator: 'dpo',
  appVersion: '0.1.0',
  ...extra,
});

// The forged act: a delete of forged-user under REQ-1, written the way lines were before the chain existed.
const FORGED = [
  JSON.stringify({ ...entry('forged-user', 'attempted', { reference: 'REQ-1' }), actId: 'forged-act' }),
  JSON.stringify({ ...entry('forged-user', 'done', { reference: 'REQ-1', status: 200 }), actId: 'forged-act' }),
];

let dataDir: string;
let auditPath: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'privacy-desk-forgery-'));
  auditPath = join(dataDir, 'audit.jsonl');
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: { PATH: process.env.PATH, PRIVACY_DESK_DATA_DIR: dataDir, PRIVACY_DESK_CREDENTIAL_STORE: 'session', NO_COLOR: '1' },
  });
  return { code, stdout, stderr };
}

/** Ten chained entries (five acts under REQ-2), written by Privacy Desk itself. */
async function writeChainOfTen(): Promise<void> {
  const log = openAuditLog(dataDir);
  for (let n = 0; n < 5; n++) {
    await log.append(entry(`user-${n}`, 'attempted', { reference: 'REQ-2' }));
    await log.append(entry(`user-${n}`, 'done', { reference: 'REQ-2', status: 200 }));
  }
}

async function receiptText(reference: string): Promise<string> {
  const output = join(dataDir, `${reference}.pdf`);
  const run = await cli(['audit', 'receipt', '--reference', reference, '--output', output]);
  expect(run.code, run.stderr).toBe(0);
  return (await pdfText(readFileSync(output))).text;
}

describe('a forged act put before the chain', () => {
  it('is a break: verify (with --head too) fails at line 1, and the receipt neither verifies the chain nor vouches for the act', async () => {
    await writeChainOfTen();
    const head = (JSON.parse((await cli(['audit', 'verify', '--json'])).stdout) as { headHash: string }).headHash;
    writeFileSync(auditPath, `${FORGED.join('\n')}\n${readFileSync(auditPath, 'utf8')}`);

    const verify = await cli(['audit', 'verify', '--json']);
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: false, kind: 'inserted', line: 1 });
    const withHead = await cli(['audit', 'verify', '--head', head]);
    expect(withHead.code).toBe(1);
    expect(withHead.stdout).toMatch(/^NOT verified: Lines 1 to 2 come before the chain, but its first entry \(line 3\) says 0 came before it/);

    const text = await receiptText('REQ-1');
    expect(text).not.toMatch(/Verified: the chain of \d+ entries is intact/);
    expect(text).toContain('WARNING: THE AUDIT TRAIL’S CHAIN IS BROKEN');
    expect(text).toMatch(/Outside the hash chain/);
  });

  it('on a chain started before chains recorded what preceded them: the lines are unchained — a break, never evidence', async () => {
    // Two chained entries as the previous Privacy Desk wrote them: the first one without a record of earlier lines.
    const { before: _recordOfEarlierLines, ...link } = startChain();
    const first = { ...entry('user-a', 'attempted'), ...link } as AuditEntry & ChainedShape;
    const second = { ...entry('user-a', 'done', { status: 200 }), ...linkAfter(first) } as AuditEntry & ChainedShape;
    writeFileSync(auditPath, `${FORGED.join('\n')}\n${JSON.stringify(first)}\n${JSON.stringify(second)}\n`);

    const verify = await cli(['audit', 'verify']);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/^NOT verified: Lines 1 to 2 come before the chain, and its first entry \(line 3\) records no earlier lines: nothing shows they were there when the chain started/);
    expect(JSON.parse((await cli(['audit', 'verify', '--json'])).stdout)).toMatchObject({ ok: false, kind: 'unchained', line: 1, entries: 2, headHash: entryHash(second) });
    const text = await receiptText('REQ-1');
    expect(text).not.toMatch(/Verified: the chain/);
    expect(text).toMatch(/Outside the hash chain/);
  });
});

describe('a genuine prefix: lines written before the chain existed', () => {
  it('verifies when the chain’s first entry records them, with the count said; any change to them is a break', async () => {
    const legacy = [JSON.stringify({ ...entry('old-user', 'attempted', { reference: 'REQ-9' }), actId: undefined }), JSON.stringify({ ...entry('old-user', 'done', { reference: 'REQ-9' }), outcome: 'succeeded', actId: undefined })];
    writeFileSync(auditPath, `${legacy.join('\n')}\n`);
    await openAuditLog(dataDir).append(entry('new-user', 'attempted'));
    const stored = readFileSync(auditPath, 'utf8');

    const verify = await cli(['audit', 'verify']);
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/^Verified, 1 entry, head hash [0-9a-f]{64} \(2 earlier lines were written before the chain existed: the chain’s first entry records their fingerprint, which still matches; no hash of their own covers them\)\./);
    const text = await receiptText('REQ-9');
    expect(text).toMatch(/Outside the hash chain/);

    writeFileSync(auditPath, `${FORGED[0]}\n${stored}`);
    expect(JSON.parse((await cli(['audit', 'verify', '--json'])).stdout)).toMatchObject({ ok: false, kind: 'inserted', line: 1 });
    writeFileSync(auditPath, stored.replace('old-user', 'odd-user'));
    expect(JSON.parse((await cli(['audit', 'verify', '--json'])).stdout)).toMatchObject({ ok: false, kind: 'edited', line: 1 });
    writeFileSync(auditPath, stored.slice(stored.indexOf('\n') + 1));
    expect(JSON.parse((await cli(['audit', 'verify', '--json'])).stdout)).toMatchObject({ ok: false, kind: 'removed', line: 1 });
  });
});

describe('an entry inserted mid-chain', () => {
  /** user-2's act gets a forged outcome on line 5, linked to the entry before it: the intruder is found by its successor. */
  async function insertForgedOutcome(): Promise<void> {
    await writeChainOfTen();
    const lines = readFileSync(auditPath, 'utf8').trimEnd().split('\n');
    const previous = JSON.parse(lines[3]!) as AuditEntry & ChainedShape;
    const attempt = JSON.parse(lines[4]!) as AuditEntry & ChainedShape;
    const forged = { ...attempt, outcome: 'done', status: 200, at: '2026-11-22T18:00:01.000+01:00', prevHash: entryHash(previous) };
    writeFileSync(auditPath, `${[...lines.slice(0, 4), JSON.stringify(forged), ...lines.slice(4)].join('\n')}\n`);
  }

  it('the receipt names this act’s entry where the chain breaks, and says the acts after it are not vouched for', async () => {
    await insertForgedOutcome();
    expect(JSON.parse((await cli(['audit', 'verify', '--json'])).stdout)).toMatchObject({ ok: false, kind: 'inserted', line: 5 });
    // Lines wrap where the page ends them: read it as one run of words.
    const text = (await receiptText('REQ-2')).replace(/\s+/g, ' ');
    expect(text).toContain('WARNING: THE AUDIT TRAIL’S CHAIN IS BROKEN');
    expect(text).toMatch(/The chain breaks at this act’s entry on line 5 \(entry 5\): an entry was inserted\. Nothing vouches for what this act records\./);
    expect(text).toMatch(/This act’s entries come after the chain’s break at line 5: nothing vouches for them\./);
    expect(text).toContain('line 5 (entry 5) The chain breaks here: an entry was inserted.');
    expect(text).toContain('line 6 (entry 5) After the break: not vouched for.');
    expect(text).toMatch(/line 4 \(entry 4\) [0-9a-f]{64}/);
    // The acts before the break are what they were.
    expect(text.split('Act 3 of 5')[0]).not.toMatch(/Nothing vouches|not vouched/);
  });

  it('audit list marks every entry the chain does not vouch for, and only those', async () => {
    await insertForgedOutcome();
    const list = await cli(['audit', 'list']);
    const rows = list.stdout.split('\n').filter((row) => /^\s*\d+\s/.test(row));
    expect(rows.filter((row) => /NOT VOUCHED/.test(row)).map((row) => Number(row.trim().split(/\s+/)[0]))).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(rows.find((row) => row.trim().startsWith('5 '))).toMatch(/done \[NOT VOUCHED: the chain breaks at this line\]/);
    expect(rows.find((row) => row.trim().startsWith('6 '))).toMatch(/attempted \[NOT VOUCHED: after the chain’s break at line 5\]/);
  });
});
