import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, BatchAuditSummary } from '../shared/audit';
import { AUDIT_CSV_COLUMNS, batchSummaryWords, buildAuditExport } from './audit-export';
import { openAuditLog } from './audit-log';

const AT = '2026-11-22T20:00:00.000+01:00';
const base = { at: AT, profileId: 'p', profileName: 'Staging', baseUrl: 'https://staging.example.com', via: 'batch', jobId: '20261122-190000-abcdef' } as const;
const summary: BatchAuditSummary = { operation: 'delete', total: 250, done: 230, doneBeforeInterruption: 12, notFound: 5, failed: 3, unfinished: 0, ended: 'finished' };

describe('a batch job’s summary entry in the audit export', () => {
  it('says its counts in words: done counts those done before an interruption, said in brackets', () => {
    expect(batchSummaryWords(summary)).toBe('delete 250: 242 done (12 of them before an interruption), 5 not found, 3 failed, 0 unfinished (finished)');
    expect(batchSummaryWords({ ...summary, done: 10, doneBeforeInterruption: 0, notFound: 0, failed: 0, unfinished: 240, ended: 'cancelled' })).toBe('delete 250: 10 done, 0 not found, 0 failed, 240 unfinished (cancelled)');
  });

  it('CSV: a batchSummary column (the last one) holds the words on the summary row and is empty on the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-export-batch-'));
    try {
      const log = openAuditLog(dir);
      const item: AuditEntry = { ...base, actId: 'act-1', action: 'delete', outcome: 'done', uid: 'alice', status: 200 };
      await log.append(item);
      await log.append({ ...base, actId: 'act-2', action: 'batch', outcome: 'summary', uid: '', batch: summary });
      const csv = buildAuditExport(await log.read(), { format: 'csv', exportedAt: AT });
      const rows = Papa.parse<Record<string, string>>(csv.content.trim(), { header: true }).data;
      expect(AUDIT_CSV_COLUMNS.at(-1)).toBe('batchSummary');
      expect(rows.map((row) => [row.operation, row.stage, row.batchSummary])).toEqual([
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
