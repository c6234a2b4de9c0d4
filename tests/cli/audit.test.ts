import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

describe('privacy-desk audit list / verify / export (in-process CLI)', () => {
  let f: CliFixture;
  let auditPath: string;
  beforeAll(async () => {
    f = await startCliFixture(5);
    auditPath = join(f.dataDir, 'audit.jsonl');
    for (const [uid, reference] of [['audit-alice', 'REQ-1'], ['audit-bob', 'REQ-2']] as const) {
      await fetch(`${f.sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid }) });
      const run = await f.cli(['users', 'anonymize', uid, '--confirm', uid, '--reference', reference]);
      expect(run.code, run.stderr).toBe(0);
    }
  });
  afterAll(() => f.close());
  const audit = (args: string[]) => f.cli(['audit', ...args], { connection: false });

  it('lists the entries a filter keeps, and says the chain verifies', async () => {
    const all = await audit(['list', '--json']);
    expect(all.code).toBe(0);
    const document = JSON.parse(all.stdout) as { entries: Array<{ uid: string; reference: string }>; verdict: { ok: boolean } };
    expect(document.verdict.ok).toBe(true);
    expect(new Set(document.entries.map((e) => e.uid))).toEqual(new Set(['audit-alice', 'audit-bob']));

    const filtered = await audit(['list', '--reference', 'req-2']);
    expect(filtered.code).toBe(0);
    expect(filtered.stdout).toContain('audit-bob');
    expect(filtered.stdout).not.toContain('audit-alice');
    expect(filtered.stderr).toMatch(/^Verified, \d+ entries, head hash [0-9a-f]{64}\.$/m);

    expect((await audit(['list', '--since', 'yesterday'])).code).toBe(2);
  });

  it('a 404 to an erasure reads as the batch results read it: not found (already erased or never existed)', async () => {
    const run = await f.cli(['users', 'delete', 'audit-nobody', '--confirm', 'audit-nobody', '--no-logout-first']);
    expect(run.code).toBe(1);
    const list = await audit(['list', '--uid', 'audit-nobody']);
    expect(list.stdout).toMatch(/delete +refused: not found \(already erased or never existed\)/);
  });

  it('exports CSV to stdout and JSON to a file, both naming the head hash', async () => {
    const csv = await audit(['export', '--format', 'csv', '--uid', 'audit-alice']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\r\n')[0]).toMatch(/^line,seq,at,actId,operation,stage,uid,reference,/);
    expect(csv.stdout).toContain('audit-alice');
    expect(csv.stdout).not.toContain('audit-bob');
    const head = /head hash of the chain: ([0-9a-f]{64})/.exec(csv.stderr)?.[1];
    expect(head).toBeDefined();

    const out = join(mkdtempSync(join(tmpdir(), 'audit-export-')), 'trail.json');
    try {
      const json = await audit(['export', '--format', 'json', '--output', out]);
      expect(json.code).toBe(0);
      expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ headHash: head, chainId: expect.any(String) });
    } finally {
      rmSync(join(out, '..'), { recursive: true, force: true });
    }
  });

  it('verify exits 0 on an untouched trail and 1 naming the line of an edit', async () => {
    const clean = await audit(['verify']);
    expect(clean).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Verified, \d+ entries, head hash [0-9a-f]{64}\.\nAnchor: for this session only — no keychain is in use .*\n$/) });

    const original = readFileSync(auditPath, 'utf8');
    try {
      writeFileSync(auditPath, original.replace('"reference":"REQ-1"', '"reference":"REQ-9"'));
      const edited = await audit(['verify']);
      expect(edited.code).toBe(1);
      expect(edited.stdout).toMatch(/^NOT verified: Line 1 was edited after it was written/);
    } finally {
      writeFileSync(auditPath, original);
    }
  });

  it('verify --head catches entries removed from the end, which no successor links to', async () => {
    const head = /head hash ([0-9a-f]{64})/.exec((await audit(['verify'])).stdout)?.[1] ?? '';
    expect((await audit(['verify', '--head', head])).code).toBe(0);
    const original = readFileSync(auditPath, 'utf8');
    try {
      const lines = original.trimEnd().split('\n');
      writeFileSync(auditPath, `${lines.slice(0, -1).join('\n')}\n`);
      expect((await audit(['verify'])).code).toBe(0); // the chain alone cannot tell
      const cut = await audit(['verify', '--head', head]);
      expect(cut.code).toBe(1);
      expect(cut.stdout).toContain(`NOT verified: No entry has the hash ${head} any more: entries were removed from the end of the trail (after line ${lines.length - 1})`);
    } finally {
      writeFileSync(auditPath, original);
    }
    expect((await audit(['verify', '--head', 'abc'])).code).toBe(2);
  });

  it('shows a corrupt line with its number and a service string with its control characters visible', async () => {
    const original = readFileSync(auditPath, 'utf8');
    try {
      appendFileSync(auditPath, 'null\n');
      const lines = original.trimEnd().split('\n');
      const last = JSON.parse(lines[lines.length - 1] ?? '') as Record<string, unknown>;
      appendFileSync(auditPath, `${JSON.stringify({ ...last, seq: 999, uid: 'evil\u001b]0;owned\u0007' })}\n`);
      const run = await audit(['list']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('evil\\u001b]0;owned\\u0007');
      expect(run.stdout).not.toContain('\u001b');
      expect(run.stderr).toContain(`Line ${lines.length + 1}: corrupt (null instead of an entry)`);
      expect(run.stderr).toMatch(/NOT verified: Line \d+ is not a readable audit entry/);
    } finally {
      writeFileSync(auditPath, original);
    }
  });
});
