import type { AuditEntry, AuditReading, ChainVerdict } from '../shared/audit';

/**
 * The audit trail as the gate, the runner, the register and the fronts use it, whatever keeps it: the data folder's
 * audit.jsonl (core/audit-log.ts, the default) or the team database (core/team/pg-audit-log.ts). Both build each
 * entry's line the same way (core/audit-file.ts, core/audit-chain.ts) and judge it with the same verifier.
 */
export interface AuditStore {
  /** Where the trail is, as shown to users: the file's path, or the database's address (postgres://USER@HOST:PORT/DB). */
  readonly where: string;
  /**
   * Appends one entry, chained to the last, durably (fsynced, or a committed transaction) before it resolves; throws
   * when it could not be recorded (callers must then not act). An entry other than 'attempted' that cannot be written
   * is kept in memory and written before the next entry (or by flushPending): the act it records happened.
   */
  append(entry: AuditEntry): Promise<void>;
  /** Several entries in order, all or nothing, in one write (one fsync, or one transaction). Outcomes are kept as with append. */
  appendMany(entries: readonly AuditEntry[]): Promise<void>;
  /**
   * Like append, but builds the entry from the trail's last stored line (exactly as stored; null when there is none),
   * read under the same lock as the write. The chain fields are added to what `build` returns.
   */
  appendAfterLast(build: (lastLine: string | null) => AuditEntry): Promise<void>;
  /** Newest first, readable entries only (legacy outcomes as stored). */
  list(limit?: number): Promise<AuditEntry[]>;
  /** Every entry read on its own, with the chain's verdict. */
  read(): Promise<AuditReading>;
  /** Read-only check of the chain; `anchor`: a head hash the chain must still hold. */
  verify(anchor?: string): Promise<ChainVerdict>;
  /** Writes the outcome entries kept after a failed write; returns how many are still waiting. */
  flushPending(): Promise<number>;
  readonly pendingCount: number;
  /** The entries still waiting, oldest first. */
  pendingEntries(): readonly AuditEntry[];
  /** Tells the anchor now that the last write landed (the file's keychain anchor); nothing to do where there is none. */
  settle(): Promise<void>;
  /** A change feed starting at the trail's end now: what any writer appends from here on (core/erasure-feed.ts reads it). */
  feed(): AuditFeedSource;
}

/** What a feed brought since it was last asked. */
export interface AuditFeedNews {
  /** The stored lines appended since, whole ones only, oldest first. */
  lines: string[];
  /** The trail was replaced or shrank (or could not be followed): anything may have changed. */
  lostTrack: boolean;
}

export interface AuditFeedSource {
  /** The lines appended since the last call (or since the feed was made). */
  next(): Promise<AuditFeedNews>;
}
