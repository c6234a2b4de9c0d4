import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../shared/audit';
import { buildAuditExport, neutraliseCell, restoreCell } from '../audit-export';
import { openAuditLog } from '../audit-log';
import { createDraft } from './drafts';
import { createJob } from './journal';
import { BATCH_RESULTS_CSV_COLUMNS, exportResults } from './results';
import { parseBatchInput, type BatchInputItem } from './parse-input';

/** uids a spreadsheet would run, or that look like what neutralising makes of them. */
const AWKWARD = ['=1+1', "'=1+1", '+33 6', '-x', '@x', "''", "'", '\u00a0=x', 'plain', 'a,b "c"'];
const REFERENCES = ['=HYPERLINK("http://evil")', "'REQ-1", '+1', '-2', '@3', "''", 'REQ-7', 'REQ-8', 'REQ-9', 'REQ-10'];

async function readBack(csv: string, referenceColumn?: string): Promise<{ items: BatchInputItem[]; fromExport: string | undefined }> {
  const items: BatchInputItem[] = [];
  const summary = await parseBatchInput(csv, { kind: 'auto', ...(referenceColumn ? { referenceColumn } : {}) }, (item) => {
    items.push(item);
  });
  return { items, fromExport: summary.fromExport };
}

describe('CSV exports read back as a batch input', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'csv-round-trip-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('neutralising never makes two cells alike, and restoring undoes it', () => {
    const written = AWKWARD.map(neutraliseCell);
    expect(new Set(written).size).toBe(AWKWARD.length);
    expect(neutraliseCell('=1+1')).toBe("'=1+1");
    expect(neutraliseCell("'=1+1")).toBe("''=1+1");
    expect(written.map(restoreCell)).toEqual(AWKWARD);
  });

  it('batch results export → batch input: the same uids and references, in order', async () => {
    const journal = await createJob(dir, { action: 'delete', profileId: 'p1', profileName: 'P', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total: AWKWARD.length, source: 'in.csv' });
    await journal.appendItems(AWKWARD.map((uid, index) => ({ line: index + 2, uid, reference: REFERENCES[index] as string })));
    await journal.finishItems();
    await journal.close();
    const exported = await exportResults(dir, journal.jobId, 'csv');
    expect(exported.content).toContain("''=1+1");

    const { items, fromExport } = await readBack(exported.content, 'reference');
    expect(fromExport).toBe('batch-results');
    expect(items.map((item) => item.uid)).toEqual(AWKWARD);
    expect(items.map((item) => item.reference)).toEqual(REFERENCES.map((reference) => reference.trim()));

    // Through a draft, as the console and the CLI read it: the preview says where it came from.
    const preview = await createDraft(dir, { source: exported.content, sourceName: exported.fileName, referenceColumn: 'reference' });
    expect(preview).toMatchObject({ items: AWKWARD.length, invalidCount: 0, fromExport: 'batch-results', firstUids: AWKWARD.slice(0, 3) });
  });

  it('a uid sent trimmed by the operator’s choice: the CSV keeps it as pasted in its last column, and reads back by the uid sent', async () => {
    const journal = await createJob(dir, { action: 'delete', profileId: 'p1', profileName: 'P', baseUrl: 'http://127.0.0.1:1', logoutFirst: false, total: 3, source: 'in.csv', trimmedByChoice: 2 });
    await journal.appendItems([
      { line: 2, uid: 'kept' },
      { line: 3, uid: 'user-000490', pastedUid: ' user-000490 ' },
      { line: 4, uid: '=user', pastedUid: '=user\u00a0' },
    ]);
    await journal.finishItems();
    await journal.recordStarted([0, 1, 2]);
    for (const item of [0, 1, 2]) await journal.recordOutcome({ item, outcome: 'done', status: 200 });
    await journal.close();

    const exported = await exportResults(dir, journal.jobId, 'csv');
    const [header, ...rows] = Papa.parse<string[]>(exported.content.replace(/\r\n$/, ''), { newline: '\r\n' }).data;
    // Added at the end: a reader of the first eight columns finds them where they always were.
    expect(header).toEqual(['line', 'uid', 'reference', 'outcome', 'status', 'request_id', 'reason', 'at', 'pasted_uid']);
    expect(rows.map((row) => [row[1], row[8]])).toEqual([
      ['kept', ''],
      ['user-000490', ' user-000490 '],
      ["'=user", "'=user\u00a0"],
    ]);

    const { items, fromExport } = await readBack(exported.content);
    expect(fromExport).toBe('batch-results');
    expect(items.map((item) => item.uid)).toEqual(['kept', 'user-000490', '=user']);
    // Picked by its name, the column reads back as pasted too.
    const pasted = await parseBatchInput(exported.content, { kind: 'auto', uidColumn: 'pasted_uid' }, () => undefined);
    expect(pasted).toMatchObject({ fromExport: 'batch-results', items: 2, edgeSpaces: { count: 2 } });
  });

  it('an export made before the pasted_uid column is still read back as ours', async () => {
    const older = `${BATCH_RESULTS_CSV_COLUMNS.slice(0, 8).join(',')}\r\n2,'=1+1,,done,200,,,2026-11-22T20:00:00.000Z\r\n3,''x,,done,200,,,2026-11-22T20:00:00.000Z\r\n`;
    const { items, fromExport } = await readBack(older);
    expect(fromExport).toBe('batch-results');
    expect(items.map((item) => item.uid)).toEqual(['=1+1', "'x"]);
  });

  it('audit export → batch input: the same uids', async () => {
    const log = openAuditLog(dir);
    const base = { at: '2026-11-22T20:00:00.000+01:00', profileId: 'p', profileName: 'P', baseUrl: 'https://p.example.com', via: 'app' } as const;
    for (const [index, uid] of AWKWARD.entries()) {
      const entry: AuditEntry = { ...base, actId: `act-${index}`, action: 'delete', outcome: 'attempted', uid, reference: REFERENCES[index] as string };
      await log.append(entry);
      await log.append({ ...entry, outcome: 'done', status: 200 });
    }
    const exported = buildAuditExport(await log.read(), { format: 'csv', exportedAt: '2026-11-22T20:00:00.000+01:00' });
    const { items, fromExport } = await readBack(exported.content, 'reference');
    expect(fromExport).toBe('audit');
    // Each act has two rows (attempted, done): the repeats are dropped as duplicates.
    expect(items.map((item) => item.uid)).toEqual(AWKWARD);
    expect(items.map((item) => item.reference)).toEqual(REFERENCES);
  });

  it('any other CSV is read as it is: a leading apostrophe there is part of the uid', async () => {
    const { items, fromExport } = await readBack("uid,ticket\n'=1+1,T-1\n''x,T-2\n");
    expect(fromExport).toBeUndefined();
    expect(items.map((item) => item.uid)).toEqual(["'=1+1", "''x"]);
  });
});
