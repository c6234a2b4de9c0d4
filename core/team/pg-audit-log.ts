import type { AuditEntry } from '../../shared/audit';
import { isPrivacyDeskError } from '../../shared/errors';
import { parseAuditText } from '../audit-reader';
import type { AuditStore } from '../audit-store';
import { pgAuditFeed } from './pg-audit-feed';
import { buildRow, insertRows, lineAt, lockHead, type BuiltRow, type ChainHeadRow } from './pg-audit-rows';
import { readTeamTrail, verifyTeamTrail, TEAM_PAGE_ROWS } from './pg-audit-verify';
import { teamAuditWriteError, teamReadError } from './pg-audit-write-error';
import type { TeamDatabase } from './team-database';

export interface PgAuditLogOptions {
  /** Kept for symmetry with the file trail (its anchor's dates); the entries carry the caller's own `at`. */
  now?: () => number;
  /** Rows read at a time by read() and verify() (tests make it small to cross pages). */
  pageRows?: number;
}

/**
 * The team's audit trail in PostgreSQL (team mode), as an AuditStore. An append is one transaction: the chain's head
 * row locked (SELECT … FOR UPDATE: every writer on every desktop takes its turn), each entry built as the local trail
 * builds its line, rows inserted, the head moved, COMMIT — and only then does append resolve, so the gate sends an
 * act only once its 'attempted' entry is committed. Each entry names the desktop and the database role it was written
 * from, beside the OS user (`operator`). There is no keychain anchor here: rows cannot be changed or removed (a
 * trigger refuses it), the chain's head row says where the chain ends (verify holds the last entry to it), and the
 * database's own access control stands where the file has the keychain.
 */
export function openPgAuditLog(db: TeamDatabase, options: PgAuditLogOptions = {}): AuditStore {
  const pageRows = options.pageRows ?? TEAM_PAGE_ROWS;
  const pending: AuditEntry[] = [];
  const who = (entry: AuditEntry): AuditEntry => ({ ...entry, desktop: db.desktop, dbRole: db.role });
  // This process's writes one after another, so kept outcomes are written once (the row lock orders the desktops).
  let turn: Promise<unknown> = Promise.resolve();

  // `build` null writes only the kept entries; `keep` is what to keep when this write fails.
  const appendBuilt = (build: ((lastLine: string | null) => AuditEntry | readonly AuditEntry[]) | null, keep: readonly AuditEntry[] = []): Promise<void> => {
    const write = turn.then(async () => {
      const flushing = pending.length;
      try {
        await db.transaction(async (client) => {
          let head: ChainHeadRow = await lockHead(client);
          const rows: BuiltRow[] = [];
          const add = (entry: AuditEntry) => {
            const row = buildRow(head, who(entry));
            rows.push(row);
            head = { seq: row.seq, hash: row.hash };
          };
          // Outcomes kept from an earlier failure go first, in order: they happened first.
          for (const entry of pending.slice(0, flushing)) add(entry);
          if (build) {
            const last = rows.length > 0 ? (rows[rows.length - 1] as BuiltRow).line : await lineAt(client, head.seq);
            const built = build(last);
            for (const entry of Array.isArray(built) ? built : [built as AuditEntry]) add(entry);
          }
          await insertRows(client, rows);
        });
        pending.splice(0, flushing);
      } catch (error) {
        pending.push(...keep);
        // The caller's own refusal (an entry built from the last line may refuse) as it is, as on a file.
        throw isPrivacyDeskError(error) && error.code !== 'TEAM_STORE_UNAVAILABLE' ? error : teamAuditWriteError(db.where, error);
      }
    });
    turn = write.catch(() => undefined);
    return write;
  };

  return {
    where: db.where,
    // An 'attempted' entry that cannot be written stops the act; any other records an act that happened.
    append: (entry) => appendBuilt(() => entry, entry.outcome === 'attempted' ? [] : [entry]),
    appendMany: (entries) => (entries.length === 0 ? Promise.resolve() : appendBuilt(() => entries, entries.filter((entry) => entry.outcome !== 'attempted'))),
    appendAfterLast: (build) => appendBuilt(build),
    async list(limit = 200) {
      const { rows } = await db.pool.query<{ line: string }>('SELECT line FROM audit_entries ORDER BY seq DESC LIMIT $1', [Math.max(0, limit)]).catch((error: unknown) => {
        throw teamReadError(db.where, error);
      });
      const text = rows.map((row) => row.line.replace(/\n/g, ' ')).reverse().join('\n');
      return parseAuditText(text ? `${text}\n` : '')
        .entries.map(({ line: _line, ...entry }) => entry as AuditEntry)
        .reverse();
    },
    read: () => readTeamTrail(db, pageRows),
    verify: (anchor) => verifyTeamTrail(db, anchor, pageRows),
    async flushPending() {
      if (pending.length === 0) return 0;
      await appendBuilt(null).catch(() => undefined);
      return pending.length;
    },
    get pendingCount() {
      return pending.length;
    },
    pendingEntries: () => [...pending],
    settle: () => Promise.resolve(),
    feed: () => pgAuditFeed(db.pool),
  };
}
