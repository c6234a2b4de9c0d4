import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { actVouching, lineVouching, matchesAuditFilter, type AuditEntry } from '../shared/audit';
import { canonicalJson, chainAnchor, entryHash } from './audit-chain';
import { buildAuditExport } from './audit-export';
import { openAuditLog, type FileAuditLog } from './audit-log';

const entry = (uid: string, outcome: AuditEntry['outcome'] = 'attempted', extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at: '2026-11-22T18:00:00.000+01:00', actId: `act-${uid}`, action: 'anonymize', uid, profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', outcome, via: 'cli', ...extra,
});

describe('the audit hash chain', () => {
  let dir: string;
  let log: FileAuditLog;
  let lines: string[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-chain-'));
    log = openAuditLog(dir);
    for (const uid of ['a', 'b', 'c', 'd', 'e', 'f']) await log.append(entry(uid));
    lines = readFileSync(log.path, 'utf8').trimEnd().split('\n');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const rewrite = (next: string[]) => writeFileSync(log.path, `${next.join('\n')}\n`);
  const parsed = (k: number) => JSON.parse(lines[k] ?? '') as Record<string, unknown>;

  it('chains each entry to the one before, anchored on a random chain id', () => {
    const first = parsed(0);
    expect(first).toMatchObject({ format: 2, seq: 1, chainId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first.prevHash).toBe(chainAnchor(first.chainId as string));
    expect(parsed(1)).toMatchObject({ seq: 2, prevHash: entryHash(first) });
    expect(parsed(1).chainId).toBeUndefined();
  });

  it('hashes a canonical form: keys sorted at every depth, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 'x' }, z: undefined })).toBe('{"a":{"c":"x","d":[2,{"e":0,"f":1}]},"b":1}');
  });

  it('verifies an untouched trail, naming its entries and head hash', async () => {
    expect(await log.verify()).toEqual({ ok: true, entries: 6, headHash: entryHash(parsed(5)), chainId: parsed(0).chainId });
  });

  it('locates an edited field', async () => {
    rewrite(lines.map((line, k) => (k === 2 ? line.replace('"uid":"c"', '"uid":"x"') : line)));
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'edited', line: 3, message: expect.stringContaining('Line 3 was edited') });
  });

  it('locates a removed entry', async () => {
    rewrite(lines.filter((_, k) => k !== 2));
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'removed', line: 3, message: expect.stringContaining('Entry 3 is missing between line 2 and line 3') });
  });

  it('locates two swapped entries', async () => {
    rewrite([lines[0], lines[1], lines[3], lines[2], lines[4], lines[5]] as string[]);
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'swapped', line: 3, message: expect.stringContaining('Lines 3 and 4 were swapped') });
  });

  it('locates an inserted entry, a naive copy or one forged with a valid link', async () => {
    const copy = (lines[2] ?? '').replace('"uid":"c"', '"uid":"intruder"');
    rewrite([...lines.slice(0, 3), copy, ...lines.slice(3)]);
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'inserted', line: 4 });

    const forged = JSON.stringify({ ...parsed(3), uid: 'forged', prevHash: entryHash(parsed(2)) });
    rewrite([...lines.slice(0, 3), forged, ...lines.slice(3)]);
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'inserted', line: 4 });

    rewrite([...lines, JSON.stringify(entry('legacy-looking'))]);
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'inserted', line: 7 });
  });

  it('locates a torn last line, which the next open moves aside', async () => {
    appendFileSync(log.path, '{"format":2,"seq":7,"at":"2026-');
    expect(await log.verify()).toMatchObject({ ok: false, kind: 'torn-tail', line: 7 });
    const reading = await openAuditLog(dir).read();
    expect(reading.setAside).toMatchObject({ bytes: 31 });
    expect(reading.verdict).toMatchObject({ ok: true, entries: 6 });
  });

  it('names the lines it no longer vouches for: the break and after it, lines outside the chain, never the intact ones', async () => {
    const copy = (lines[2] ?? '').replace('"uid":"c"', '"uid":"intruder"');
    rewrite([...lines.slice(0, 3), copy, ...lines.slice(3)]);
    const inserted = await log.verify();
    expect(inserted).toMatchObject({ ok: false, kind: 'inserted', line: 4, unvouched: { from: 4 } });
    expect([3, 4, 5].map((line) => lineVouching(inserted, line))).toEqual(['vouched', 'at-break', 'after-break']);

    // Two forged lines put before the chain: outside it; the chain after them is intact and vouched for.
    const forged = [JSON.stringify({ ...entry('forged-user', 'done'), actId: 'forged' }), JSON.stringify({ ...entry('forged-user', 'attempted'), actId: 'forged' })];
    rewrite([...forged, ...lines]);
    const prefixed = await log.verify();
    expect(prefixed).toMatchObject({ ok: false, kind: 'inserted', line: 1, unvouched: { outsideBefore: 3 } });
    expect([1, 2, 3, 8].map((line) => lineVouching(prefixed, line))).toEqual(['outside-chain', 'outside-chain', 'vouched', 'vouched']);
    expect(actVouching(prefixed, [2, 3])).toBe('outside-chain');

    // And an edit further on: both.
    rewrite([...forged, ...lines.map((line, k) => (k === 4 ? line.replace('"uid":"e"', '"uid":"x"') : line))]);
    const both = await log.verify();
    expect(both).toMatchObject({ ok: false, line: 1, unvouched: { outsideBefore: 3, from: 7 } });
    expect([2, 6, 7, 8].map((line) => lineVouching(both, line))).toEqual(['outside-chain', 'vouched', 'at-break', 'after-break']);
  });

  it('reads legacy lines before the chain, then chains after them', async () => {
    rmSync(log.path);
    writeFileSync(log.path, `${JSON.stringify({ ...entry('old'), outcome: 'succeeded', actId: undefined })}\n`);
    const fresh = openAuditLog(dir);
    await fresh.append(entry('new'));
    expect(await fresh.verify()).toMatchObject({ ok: true, entries: 1, legacy: 1 });
    const reading = await fresh.read();
    expect(reading.entries.map((e) => `${e.line}:${e.uid}:${e.outcome}`)).toEqual(['1:old:done', '2:new:attempted']);
  });
});

describe('reading a damaged trail', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-read-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('shows each malformed line as corrupt with its line number and reads the rest', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a'));
    appendFileSync(log.path, ['null', '"a string"', '42', JSON.stringify({ ...entry('b'), at: 5 }), JSON.stringify({ ...entry('c'), outcome: 'exploded' }), '{not json', ''].join('\n'));
    await log.append(entry('d', 'done'));
    const reading = await log.read();
    expect(reading.entries.map((e) => `${e.line}:${e.uid}`)).toEqual(['1:a', '8:d']);
    expect(reading.corrupt.map((c) => `${c.line}:${c.problem}`)).toEqual([
      '2:null instead of an entry',
      '3:a text instead of an entry',
      '4:a number instead of an entry',
      '5:no valid time ("at" is a number)',
      '6:unknown outcome "exploded"',
      '7:not JSON',
    ]);
    // The same problems as messages, for the window's language.
    expect(reading.corrupt.map((c) => c.problemText?.id)).toEqual(['auditLine.notAnEntry', 'auditLine.notAnEntry', 'auditLine.notAnEntry', 'auditLine.badTime', 'auditLine.unknownOutcome', 'auditLine.notJson']);
    expect(reading.verdict).toMatchObject({ ok: false, kind: 'corrupt', line: 2 });
  });

  it('reports an attempt whose outcome was never recorded', async () => {
    const log = openAuditLog(dir);
    await log.append(entry('a'));
    await log.append(entry('a', 'done'));
    await log.append(entry('a')); // the check after a done erasure: its own attempt, answered by the verification entry
    await log.append(entry('a', 'verification', { verification: 'verified' }));
    await log.append(entry('b'));
    expect((await log.read()).outcomeMissing).toEqual([{ line: 5, actId: 'act-b', action: 'anonymize', uid: 'b' }]);
  });
});

describe('filtering and exporting', () => {
  it('filters by inclusive local dates, exact uid and reference ignoring case', () => {
    const e = entry('Alice', 'done', { at: '2026-11-22T23:30:00.000+01:00', reference: 'REQ-12' });
    expect(matchesAuditFilter(e, { since: '2026-11-22', until: '2026-11-22' })).toBe(true);
    expect(matchesAuditFilter(e, { since: '2026-11-23' })).toBe(false);
    expect(matchesAuditFilter(e, { until: '2026-11-21' })).toBe(false);
    expect(matchesAuditFilter(e, { uid: 'alice' })).toBe(false);
    expect(matchesAuditFilter(e, { reference: ' req-12 ' })).toBe(true);
    expect(matchesAuditFilter(e, { reference: 'REQ-1' })).toBe(false);
    expect(matchesAuditFilter(e, { operation: 'delete' })).toBe(false);
    expect(matchesAuditFilter(e, { outcome: 'done', profileId: 'p' })).toBe(true);
  });

  it('exports CSV with formula cells neutralised, and JSON carrying the head hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-'));
    try {
      const log = openAuditLog(dir);
      await log.append(entry('=HYPERLINK("http://x")', 'attempted', { reference: '+1-555' }));
      await log.append(entry('plain', 'attempted', { reference: '@SUM(A1)' }));
      const reading = await log.read();
      const csv = buildAuditExport(reading, { format: 'csv', exportedAt: '2026-11-22T18:00:00.000+01:00' });
      expect(csv).toMatchObject({ fileName: 'privacy-desk-audit-20261122-180000.csv', count: 2, headHash: reading.verdict.headHash });
      const rows = csv.content.split('\r\n');
      expect(rows[0]).toBe('line,seq,at,actId,operation,stage,uid,reference,profileId,profileName,baseUrl,operator,appVersion,via,jobId,test,status,requestId,errorCode,verification,prevHash,hash,batchSummary,verified,pastedUid,desktop,dbRole');
      expect(rows[1]).toContain(`"'=HYPERLINK(""http://x"")",'+1-555`);
      expect(rows[2]).toContain("'@SUM(A1)");
      expect(csv.content).not.toMatch(/(^|,)[=+@-]/m);

      const json = buildAuditExport(reading, { format: 'json', filter: { uid: 'plain' }, exportedAt: '2026-11-22T18:00:00.000+01:00' });
      const document = JSON.parse(json.content) as { headHash: string; chainId: string; entries: Array<{ uid: string; hash: string }> };
      expect(document).toMatchObject({ format: 'privacy-desk-audit-export/1', headHash: reading.verdict.headHash, filter: { uid: 'plain' } });
      expect(document.entries.map((e) => e.uid)).toEqual(['plain']);
      expect(document.entries[0]?.hash).toBe(reading.verdict.headHash); // the last entry's hash is the head
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
