import type pg from 'pg';
import type { AuditEntry } from '../../shared/audit';
import { entryHash, startChain, AUDIT_FORMAT, type ChainLink } from '../audit-chain';
import { storedEntry } from '../audit-file';

/**
 * The team trail's rows (tables of core/team/migrations/audit.ts): the chain's head, locked to append; entries built
 * as the local trail builds its lines; rows inserted in one statement; rows read in pages by sequence number.
 */

export interface ChainHeadRow {
  seq: number;
  hash: string | null;
}

/** An entry ready to insert: its line exactly as verify reads it, and its hash (the next entry's prevHash). */
export interface BuiltRow {
  seq: number;
  line: string;
  hash: string;
  entry: AuditEntry;
}

/** Locks the chain's head for this transaction: every other writer, on any desktop, waits here until COMMIT. */
export async function lockHead(client: pg.PoolClient): Promise<ChainHeadRow> {
  const { rows } = await client.query<{ seq: string; hash: string | null }>('SELECT seq, hash FROM audit_head WHERE only_row = 1 FOR UPDATE');
  const row = rows[0];
  if (!row) throw new Error('the audit chain head row is missing');
  return { seq: Number(row.seq), hash: row.hash };
}

/** The stored line of entry `seq` (the head's), for an entry built from the one before it. */
export async function lineAt(client: pg.PoolClient, seq: number): Promise<string | null> {
  if (seq < 1) return null;
  const { rows } = await client.query<{ line: string }>('SELECT line FROM audit_entries WHERE seq = $1', [seq]);
  return rows[0]?.line ?? null;
}

/** The link after the head: the first entry starts the chain (nothing before it), every other follows the head's hash. */
function linkAfterHead(head: ChainHeadRow): ChainLink {
  if (head.seq === 0 || head.hash === null) return startChain('');
  return { format: AUDIT_FORMAT, seq: head.seq + 1, prevHash: head.hash };
}

/** The entry chained after `head`, as its row; the new head is the row's (seq, hash). */
export function buildRow(head: ChainHeadRow, entry: AuditEntry): BuiltRow {
  const { line } = storedEntry(linkAfterHead(head), entry);
  // Hashed from the line as verify will read it back, so whatever the caller's object held, the chain is the line's.
  const stored = JSON.parse(line) as { seq: number };
  return { seq: stored.seq, line, hash: entryHash(stored), entry };
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Inserts the rows in one statement and moves the head to the last; the caller's transaction commits both or neither. */
export async function insertRows(client: pg.PoolClient, rows: readonly BuiltRow[]): Promise<void> {
  if (rows.length === 0) return;
  const columns: Array<Array<string | null>> = Array.from({ length: 14 }, () => []);
  for (const { seq, line, hash, entry } of rows) {
    const values = [String(seq), line, hash, entry.at, entry.action, entry.outcome, entry.uid, entry.reference, entry.profileId, entry.jobId, entry.requestId, entry.via, entry.operator, entry.desktop];
    values.forEach((value, index) => columns[index]?.push(text(value)));
  }
  const last = rows[rows.length - 1] as BuiltRow;
  // One statement, one round trip while the head is locked: the rows (a WITH that changes data always runs whole) and the head's move.
  const moved = await client.query(
    `WITH added AS (
       INSERT INTO audit_entries (seq, line, hash, at, action, outcome, uid, reference, profile_id, job_id, request_id, via, operator, desktop)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
     )
     UPDATE audit_head SET seq = $15, hash = $16 WHERE only_row = 1`,
    [...columns, last.seq, last.hash],
  );
  if (moved.rowCount !== 1) throw new Error('the audit chain head row is missing');
}

/** Rows after `afterSeq`, oldest first, at most `limit`. */
export async function rowsAfter(queryable: pg.Pool | pg.PoolClient, afterSeq: number, limit: number): Promise<Array<{ seq: number; line: string }>> {
  const { rows } = await queryable.query<{ seq: string; line: string }>('SELECT seq, line FROM audit_entries WHERE seq > $1 ORDER BY seq LIMIT $2', [afterSeq, limit]);
  return rows.map((row) => ({ seq: Number(row.seq), line: row.line }));
}

/** The head as the database holds it now, without locking. */
export async function headNow(queryable: pg.Pool | pg.PoolClient): Promise<ChainHeadRow> {
  const { rows } = await queryable.query<{ seq: string; hash: string | null }>('SELECT seq, hash FROM audit_head WHERE only_row = 1');
  return { seq: Number(rows[0]?.seq ?? 0), hash: rows[0]?.hash ?? null };
}
