import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { invalidInput } from '../../shared/errors';
import { MAX_PREVIEW_INVALID, PREVIEW_ENDS, type BatchPreview } from '../../shared/batch';
import { ensureDataDir } from '../data-dir';
import { openAppendFile } from './append-file';
import type { BatchPreviewRequest } from './batch-types';
import { batchItemSchema, damagedBatchFile, draftPreviewSchema, missingUidSchema, parseBatchFile } from './batch-file-schemas';
import { batchesDir, writeFileAtomic, type BatchItem } from './job-files';
import { parseBatchInput } from './parse-input';
import { msg } from '../../shared/messages';

/**
 * A draft is a validated list waiting for the operator's confirmation: `batches/drafts/<id>.jsonl`
 * (one BatchItem a line) and `<id>.json` (its preview). Nothing is sent for a draft; start turns
 * it into a job. Drafts are kept a day, so the preview the operator confirmed is exactly what runs.
 */
const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000;
const WRITE_EVERY = 500;

export function draftsDir(dataDir: string): string {
  return join(batchesDir(dataDir), 'drafts');
}

function draftPaths(dataDir: string, draftId: string) {
  if (!/^[0-9a-f]{32}$/.test(draftId)) throw draftMissing(draftId);
  const dir = draftsDir(dataDir);
  return { dir, items: join(dir, `${draftId}.jsonl`), preview: join(dir, `${draftId}.json`), missing: join(dir, `${draftId}.missing.jsonl`), trimmable: join(dir, `${draftId}.trimmable.jsonl`) };
}

export async function createDraft(dataDir: string, request: BatchPreviewRequest, now: () => number = Date.now): Promise<BatchPreview> {
  ensureDataDir(dataDir);
  mkdirSync(draftsDir(dataDir), { recursive: true, mode: 0o700 });
  forgetOldDrafts(dataDir, now());
  const draftId = randomBytes(16).toString('hex');
  const paths = draftPaths(dataDir, draftId);
  const file = await openAppendFile(paths.items);
  const firstUids: string[] = [];
  let lastUids: string[] = [];
  let withReference = 0;
  let lines: string[] = [];
  try {
    const summary = await parseBatchInput(
      request.source,
      {
        kind: request.kind ?? 'auto',
        ...(request.separator !== undefined ? { separator: request.separator } : {}),
        ...(request.uidColumn !== undefined ? { uidColumn: request.uidColumn } : {}),
        ...(request.referenceColumn !== undefined ? { referenceColumn: request.referenceColumn } : {}),
        ...(request.hasHeader !== undefined ? { hasHeader: request.hasHeader } : {}),
      },
      async (item) => {
        if (firstUids.length < PREVIEW_ENDS) firstUids.push(item.uid);
        lastUids = [...lastUids.slice(1 - PREVIEW_ENDS), item.uid];
        if (item.reference?.trim()) withReference += 1;
        const stored: BatchItem = { line: item.line, uid: item.uid };
        if (item.reference?.trim()) stored.reference = item.reference.trim();
        lines.push(`${JSON.stringify(stored)}\n`);
        if (lines.length >= WRITE_EVERY) {
          await file.append(lines.join(''));
          lines = [];
        }
      },
    );
    if (lines.length > 0) await file.append(lines.join(''));
    await file.sync();
    const preview: BatchPreview = {
      draftId,
      kind: summary.kind,
      items: summary.items,
      withReference,
      invalid: summary.invalid.slice(0, request.listInvalid ?? MAX_PREVIEW_INVALID),
      invalidCount: summary.invalidCount,
      duplicates: summary.duplicates,
      edgeSpaces: summary.edgeSpaces,
      firstUids,
      // The last ones, without repeating those already shown first.
      lastUids: lastUids.slice(Math.max(0, PREVIEW_ENDS - Math.max(0, summary.items - PREVIEW_ENDS))),
      sourceName: request.sourceName,
    };
    if (summary.columns) preview.columns = summary.columns;
    if (summary.uidColumn) preview.uidColumn = summary.uidColumn;
    if (summary.columnCount !== undefined) preview.columnCount = summary.columnCount;
    if (summary.separator) preview.separator = summary.separator;
    if (summary.fromExport) preview.fromExport = summary.fromExport;
    writeFileAtomic(paths.preview, paths.dir, JSON.stringify(preview));
    return preview;
  } catch (error) {
    rmSync(paths.items, { force: true });
    throw error;
  } finally {
    await file.close();
  }
}

export function readDraft(dataDir: string, draftId: string): BatchPreview {
  const paths = draftPaths(dataDir, draftId);
  if (!existsSync(paths.preview) || !existsSync(paths.items)) throw draftMissing(draftId);
  const preview = parseBatchFile(draftPreviewSchema, readFileSync(paths.preview, 'utf8'), paths.preview) as BatchPreview;
  if (preview.draftId !== draftId) throw damagedBatchFile({ path: paths.preview, why: msg('batch.file.otherDraft', { draft: preview.draftId }) });
  return preview;
}

export async function* readDraftItems(dataDir: string, draftId: string): AsyncGenerator<BatchItem> {
  const path = draftPaths(dataDir, draftId).items;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text) yield parseBatchFile(batchItemSchema, text, path, line);
  }
}

/** Removes a draft's files; says whether it was there. */
export function removeDraft(dataDir: string, draftId: string): boolean {
  const paths = draftPaths(dataDir, draftId);
  const existed = existsSync(paths.items) || existsSync(paths.preview);
  rmSync(paths.preview, { force: true });
  rmSync(paths.items, { force: true });
  rmSync(paths.missing, { force: true });
  rmSync(paths.trimmable, { force: true });
  return existed;
}

/**
 * What a check against the service found missing, kept with the draft: an item missing at the check
 * is "not found" whatever happens later (a 404 after a failed attempt is then not taken for "done").
 */
export function recordMissing(dataDir: string, draftId: string, missing: readonly string[]): void {
  const paths = draftPaths(dataDir, draftId);
  writeFileAtomic(paths.missing, paths.dir, missing.map((uid) => `${JSON.stringify(uid)}\n`).join(''));
}

export function readMissing(dataDir: string, draftId: string): Set<string> {
  const { missing } = draftPaths(dataDir, draftId);
  if (!existsSync(missing)) return new Set();
  return new Set(readFileSync(missing, 'utf8').split('\n').map((text, index) => (text ? parseBatchFile(missingUidSchema, text, missing, index + 1) : '')).filter(Boolean));
}

/**
 * What the check found of uids with spaces at an end: not on the service, while their trimmed form is
 * (a likely paste mistake). Kept with the draft, as pasted, so start can send the trimmed form when the
 * operator chooses it.
 */
export function recordTrimmable(dataDir: string, draftId: string, pasted: readonly string[]): void {
  const paths = draftPaths(dataDir, draftId);
  writeFileAtomic(paths.trimmable, paths.dir, pasted.map((uid) => `${JSON.stringify(uid)}\n`).join(''));
}

/** The pasted uids recorded by recordTrimmable, or null when no check has run for this draft. */
export function readTrimmable(dataDir: string, draftId: string): Set<string> | null {
  const { trimmable } = draftPaths(dataDir, draftId);
  if (!existsSync(trimmable)) return null;
  return new Set(readFileSync(trimmable, 'utf8').split('\n').map((text, index) => (text ? parseBatchFile(missingUidSchema, text, trimmable, index + 1) : '')).filter(Boolean));
}

function forgetOldDrafts(dataDir: string, nowMs: number): void {
  const dir = draftsDir(dataDir);
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      if (nowMs - statSync(path).mtimeMs > DRAFT_LIFETIME_MS) rmSync(path, { force: true });
    } catch {
      // Another process removed it first.
    }
  }
}

function draftMissing(draftId: string) {
  return invalidInput(msg('batch.draftGone', { draft: draftId.slice(0, 8) }));
}
