import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, BatchAuditSummary } from '../shared/audit';
import { AUDIT_CSV_COLUMNS, batchSummaryWords, buildAuditExport } from './audit-export';
import { openAuditLog } from './audit-log';
import { parseBatchInput, type BatchInputItem } from './batch/parse-input';

const AT = '2026-11-22T20:00:00.000+01:00';
const base = { at: AT, profileId: 'p', profileName: 'Staging', baseUrl: 'https://staging.example.com', via: 'batch', jobId: '20261122-190000-abcdef' } as const;
const summary: BatchAuditSummary = { operation: 'delete', total: 250, done: 230, doneBeforeInterruption: 12, notFound: 5, failed: 3, unfinished: 0, ended: 'finished' };

describe('a batch job’s summary entry in the audit export', () => {
  it('says its counts in words: done counts those done before an interruption, said in brackets', () => {
    expect(batchSummaryWords(summary)).toBe('delete 250: 242 done (12 of them before an interruption), 5 not found, 3 failed, 0 unfinished (finished)');
    expect(batchSummaryWords({ ...summary, done: 10, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 240, ended: 'cancelled' })).toBe('delete 250: 10 done, 0 not found, 0 failed, 240 unfinished (cancelled)');
  });

  it('CSV: a batchSummary column (after hash) holds the words on the summary row and is empty on the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-batch-'));
    try {
      const log = openAuditLog(dir);
      const item: AuditEntry = { ...base, actId: 'act-1', action: 'delete', outcome: 'done', uid: 'alice', status: 200 };
      await log.append(item);
      await log.append({ ...base, actId: 'act-2', action: 'batch', outcome: 'summary', uid: '', batch: summary });
      const csv = buildAuditExport(await log.read(), { format: 'csv', exportedAt: AT });
      const rows = Papa.parse<Record<string, string>>(csv.content.trim(), { header: true }).data;
      expect(AUDIT_CSV_COLUMNS.indexOf('batchSummary')).toBe(AUDIT_CSV_COLUMNS.indexOf('hash') + 1);
      expect(rows.slice(0, -1).map((row) => [row.operation, row.stage, row.batchSummary])).toEqual([
        ['delete', 'done', ''],
        ['batch', 'summary', batchSummaryWords(summary)],
      ]);

      // JSON already carries the entry whole, counts included.
      const json = JSON.parse(buildAuditExport(await log.read(), { format: 'json', filter: { operation: 'batch' }, exportedAt: AT }).content) as { entries: AuditEntry[] };
      expect(json.entries.map((entry) => entry.batch)).toEqual([summary]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the CSV export carries the chain’s verdict and what each row is worth', () => {
  const parse = (content: string) => Papa.parse<Record<string, string>>(content.trim(), { header: true }).data;

  async function trail(build: (log: ReturnType<typeof openAuditLog>) => Promise<void>, tamper?: (lines: string[]) => string[]) {
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-verdict-'));
    const log = openAuditLog(dir);
    await build(log);
    if (tamper) writeFileSync(log.path, `${tamper(readFileSync(log.path, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
    return { dir, reading: await openAuditLog(dir).read() };
  }

  it('a verified trail: every row "yes", and a last row saying the verdict and the head hash; then pastedUid, desktop and dbRole', async () => {
    const { dir, reading } = await trail(async (log) => {
      await log.append({ ...base, actId: 'a', action: 'delete', outcome: 'attempted', uid: 'user-000490', pastedUid: ' user-000490 ' });
      await log.append({ ...base, actId: 'a', action: 'delete', outcome: 'done', uid: 'user-000490', pastedUid: ' user-000490 ', status: 200 });
    });
    try {
      const csv = buildAuditExport(reading, { format: 'csv', exportedAt: AT });
      expect(AUDIT_CSV_COLUMNS.slice(-5)).toEqual(['batchSummary', 'verified', 'pastedUid', 'desktop', 'dbRole']);
      const rows = parse(csv.content);
      expect(rows.map((row) => [row.line, row.uid, row.verified, row.pastedUid])).toEqual([
        ['1', 'user-000490', 'yes', ' user-000490 '],
        ['2', 'user-000490', 'yes', ' user-000490 '],
        ['', '', `Verified, 2 entries, head hash ${reading.verdict.headHash}.`, ''],
      ]);
      expect(rows.at(-1)).toMatchObject({ operation: 'chain-verdict', stage: 'verified', hash: reading.verdict.headHash, at: AT });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an inserted line: the row at the break and every row after it say so, the last row says NOT verified', async () => {
    const { dir, reading } = await trail(
      async (log) => {
        for (const uid of ['a', 'b', 'c']) await log.append({ ...base, actId: uid, action: 'delete', outcome: 'done', uid, status: 200 });
      },
      (lines) => [lines[0]!, (lines[1] ?? '').replace('"uid":"b"', '"uid":"forged"'), ...lines.slice(1)],
    );
    try {
      const rows = parse(buildAuditExport(reading, { format: 'csv', exportedAt: AT }).content);
      expect(rows.map((row) => [row.uid, row.verified])).toEqual([
        ['a', 'yes'],
        ['forged', 'no: the chain breaks at this line (2)'],
        ['b', 'no: after the chain’s break at line 2'],
        ['c', 'no: after the chain’s break at line 2'],
        ['', expect.stringMatching(/^NOT verified: /)],
      ]);
      expect(rows.at(-1)).toMatchObject({ operation: 'chain-verdict', stage: 'not verified' });
      const json = JSON.parse(buildAuditExport(reading, { format: 'json', exportedAt: AT }).content) as { entries: Array<{ uid: string; vouching: string }> };
      expect(json.entries.map((e) => [e.uid, e.vouching])).toEqual([['a', 'vouched'], ['forged', 'at-break'], ['b', 'after-break'], ['c', 'after-break']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('forged lines before the chain: "no: outside the chain"; the chain after them stays "yes"', async () => {
    const forged = JSON.stringify({ ...base, actId: 'f', action: 'delete', outcome: 'done', uid: 'forged-user', reference: 'REQ-1', status: 200 });
    const { dir, reading } = await trail(
      async (log) => {
        await log.append({ ...base, actId: 'a', action: 'delete', outcome: 'done', uid: 'alice', status: 200 });
      },
      (lines) => [forged, ...lines],
    );
    try {
      const rows = parse(buildAuditExport(reading, { format: 'csv', exportedAt: AT }).content);
      expect(rows.slice(0, 2).map((row) => [row.uid, row.verified])).toEqual([
        ['forged-user', 'no: outside the chain'],
        ['alice', 'yes'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads back as a batch list: the same uids, nothing invalid, the verdict row left out', async () => {
    const uids = ['=1+1', 'plain', ' spaced ', "'quoted"];
    const { dir, reading } = await trail(async (log) => {
      for (const uid of uids) await log.append({ ...base, actId: uid, action: 'delete', outcome: 'done', uid, reference: `R-${uid.trim()}`, status: 200 });
    });
    try {
      const items: BatchInputItem[] = [];
      const summary = await parseBatchInput(buildAuditExport(reading, { format: 'csv', exportedAt: AT }).content, { kind: 'auto', referenceColumn: 'reference' }, (item) => {
        items.push(item);
      });
      expect(summary).toMatchObject({ fromExport: 'audit', invalidCount: 0 });
      expect(items.map((item) => item.uid)).toEqual(uids);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
