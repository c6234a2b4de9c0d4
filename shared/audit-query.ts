import { matchesAuditFilter, type AuditEntryAt, type AuditFilter, type CorruptAuditLine } from './audit';

/**
 * The audit trail read one page at a time, filtered where it is kept (audit.queryPage): in the team database by SQL on
 * its indexes (core/team/pg-audit-query.ts), never loaded whole; over the local file by the same rule
 * (matchesAuditFilter). Newest first, by a keyset cursor: the entries before `cursor` (a seq in the team store, a line
 * of audit.jsonl locally), so a page is the same however many entries were written since the first one was read.
 */
export interface AuditQueryInput {
  filter: AuditFilter;
  /** Entries before this one (exclusive); absent: from the newest. */
  cursor?: number | undefined;
  limit: number;
}

/** Counting stops here: "more than 10,000 entries" is said, not counted to the last. */
export const AUDIT_COUNT_CAP = 10_000;

/** Where the trail is kept: the data folder's file, or the team database (PostgreSQL). */
export type AuditStoreKind = 'file' | 'team';

export interface AuditQueryPage {
  store: AuditStoreKind;
  /** The file's path or the database's address (postgres://USER@HOST:PORT/DB, no password). */
  where: string;
  /**
   * The entries the filter keeps on this page, and the other entries of their acts (an act is shown whole, as the
   * console's rows do), oldest first, each with `line`: its seq in the team store, its line in audit.jsonl locally.
   */
  entries: AuditEntryAt[];
  /** How many of `entries` the filter itself kept. */
  matched: number;
  /** The cursor of the next page; null when this page reached the oldest entry. */
  nextCursor: number | null;
  /** On a first page (no cursor): the entries the filter keeps in the whole trail; `exact: false` means more than `value`. */
  count?: { value: number; exact: boolean };
  /** The whole trail as its store reports it: entries written and the chain's head hash. Not a verdict: verify checks it. */
  head: { entries: number; hash: string | null };
  /** Rows that could not be read as entries (shown, never hiding the others). */
  corrupt: CorruptAuditLine[];
}

/** A trail that answers pages: the team store's SQL, or the local file read and filtered. */
export interface AuditQuery {
  readonly kind: AuditStoreKind;
  readonly where: string;
  queryPage(input: AuditQueryInput): Promise<AuditQueryPage>;
}

/**
 * One page of a trail held whole (the local file as read, the console's fake): the same answer as the team store's
 * SQL, by the one rule. `all` oldest first, by line.
 */
export function auditPageOf(all: readonly AuditEntryAt[], { filter, cursor, limit }: AuditQueryInput): Pick<AuditQueryPage, 'entries' | 'matched' | 'nextCursor' | 'count'> {
  const kept = new Set<AuditEntryAt>();
  let nextCursor: number | null = null;
  let last: AuditEntryAt | undefined;
  for (let index = all.length - 1; index >= 0; index -= 1) {
    const entry = all[index]!;
    if (cursor !== undefined && entry.line >= cursor) continue;
    if (!matchesAuditFilter(entry, filter)) continue;
    if (kept.size === limit) {
      nextCursor = last?.line ?? null;
      break;
    }
    kept.add(entry);
    last = entry;
  }
  const acts = new Set<string>();
  for (const entry of kept) if (entry.actId) acts.add(entry.actId);
  const entries = all.filter((entry) => kept.has(entry) || (entry.actId !== undefined && acts.has(entry.actId)));
  const count = cursor === undefined ? { value: all.reduce((sum, entry) => sum + (matchesAuditFilter(entry, filter) ? 1 : 0), 0), exact: true } : undefined;
  return { entries, matched: kept.size, nextCursor, ...(count ? { count } : {}) };
}
