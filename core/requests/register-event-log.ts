import type { MessageText } from '../../shared/message-text';

/**
 * The request register's events, append-only, behind one interface: requests.jsonl in the data folder
 * (core/requests/register-file.ts) or the team database (core/team/pg-register-events.ts). The store above
 * (core/requests/request-store-core.ts) does not know which.
 */
export interface RegisterLine {
  /** 1-based place of the event (the file's line; the team register's event number). */
  line: number;
  /** Exactly as stored: what its audit entry hashes. */
  text: string;
}

export interface RegisterEventLog {
  /** Shown to users: the file's path, or the database's address. */
  readonly where: string;
  /** The events as they stand, in order. */
  read(): Promise<RegisterLine[]>;
  /**
   * Under the register's lock: `decide` sees every event and returns the one to append (or null for nothing), which
   * is durably recorded (fsynced, committed) before `after` runs, still under the lock (the audit entry that vouches for it).
   */
  append<T>(decide: (lines: RegisterLine[]) => Promise<{ text: string; result: T } | null>, after?: (written: RegisterLine, result: T) => Promise<void>): Promise<T | null>;
  /** Runs `task` under the register's lock (a reader that must see the register and the audit trail at one moment). */
  locked<T>(task: () => Promise<T>): Promise<T>;
  /** The words for an event that cannot be read (changed outside Privacy Desk). */
  damaged(line: number, problem: string): MessageText;
}
