import type { AuditEntry, ImportedTrail } from '../../shared/audit';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { readWhole } from '../audit-file';
import type { FileAuditLog } from '../audit-log';
import { readingOf } from '../audit-reader';
import { parseBoundedJson } from '../bounded-json';
import { IMPORTED_FIELDS } from './pg-audit-join';
import { buildRow, insertRows, lockHead, type BuiltRow, type ChainHeadRow } from './pg-audit-rows';
import { teamAuditWriteError } from './pg-audit-write-error';
import type { TeamDatabase } from './team-database';

export interface ImportedTrailResult {
  /** Entries added to the team chain (every non-blank line of the local trail). */
  imported: number;
  /** The team sequence number of the first of them (null when there was nothing to import). */
  firstSeq: number | null;
  /** The local chain's head hash, recorded in the first imported entry. */
  localHeadHash: string | null;
}

const ROWS_A_STATEMENT = 1_000;

/**
 * The local lines as imported texts: each non-blank line with the blank lines just before it, so the texts joined by
 * newlines are the local trail again (what verify re-hashes, core/team/pg-audit-join.ts).
 */
function importedTexts(localText: string): string[] {
  const texts: string[] = [];
  let blanks = '';
  for (const line of localText.split('\n').slice(0, -1)) {
    if (!line.trim()) blanks += `${line}\n`;
    else {
      texts.push(blanks + line);
      blanks = '';
    }
  }
  return texts;
}

/**
 * `team import` of the audit trail: the data folder's audit.jsonl (its text, read after the local log set a torn last
 * line aside) appended to the team chain in one transaction, each local line an entry of its own that repeats what it
 * is about and carries the line as stored; the first records the local chain (its id, head hash, entries and lines),
 * so verify checks that the imported lines still hash to that head. A local trail that is not intact, or one already
 * imported, is refused with nothing written.
 */
export async function importLocalTrail(db: TeamDatabase, localText: string): Promise<ImportedTrailResult> {
  const local = readingOf(localText).verdict;
  if (!local.ok) throw invalidInput(msg('team.import.broken', { problem: local.text ?? msg('code.INTERNAL') }));
  const texts = importedTexts(localText);
  if (texts.length === 0) return { imported: 0, firstSeq: null, localHeadHash: null };
  const from: ImportedTrail = { chainId: local.chainId, headHash: local.headHash, entries: local.entries, lines: texts.length };
  try {
    return await db.transaction(async (client) => {
      let head: ChainHeadRow = await lockHead(client);
      const earlier = await client.query<{ seq: string; line: string }>(`SELECT seq, line FROM audit_entries WHERE line LIKE '%"importedFrom":%' ORDER BY seq`);
      for (const row of earlier.rows) {
        const parsed = parseBoundedJson(row.line);
        const before = parsed.ok ? (parsed.value as { importedFrom?: ImportedTrail }).importedFrom : undefined;
        if (before && before.headHash === from.headHash && before.chainId === from.chainId) {
          throw invalidInput(msg('team.import.again', { hash: from.headHash ?? '-', where: db.where, seq: Number(row.seq) }));
        }
      }
      const firstSeq = head.seq + 1;
      let rows: BuiltRow[] = [];
      for (const [index, text] of texts.entries()) {
        const parsed = parseBoundedJson(text.slice(text.lastIndexOf('\n') + 1));
        const stored = (parsed.ok ? parsed.value : {}) as Record<string, unknown>;
        const entry: Record<string, unknown> = {};
        for (const field of IMPORTED_FIELDS) if (stored[field] !== undefined) entry[field] = stored[field];
        entry.desktop = db.desktop;
        entry.dbRole = db.role;
        entry.imported = { text };
        if (index === 0) entry.importedFrom = from;
        const row = buildRow(head, entry as unknown as AuditEntry);
        head = { seq: row.seq, hash: row.hash };
        rows.push(row);
        if (rows.length === ROWS_A_STATEMENT) {
          await insertRows(client, rows);
          rows = [];
        }
      }
      await insertRows(client, rows);
      return { imported: texts.length, firstSeq, localHeadHash: from.headHash };
    });
  } catch (error) {
    if (error instanceof Error && (error as { code?: unknown }).code === 'INVALID_INPUT') throw error;
    throw teamAuditWriteError(db.where, error);
  }
}

/**
 * `team import` from the data folder's own trail: read through its log first (a torn last line, left by a crash, is
 * set aside there as it always is), then its text imported as above.
 */
export async function importLocalAuditLog(db: TeamDatabase, local: FileAuditLog): Promise<ImportedTrailResult> {
  await local.read();
  return importLocalTrail(db, await readWhole(local.path));
}
