import type { AnswerPack, AnswerPackOptions } from './answer-pack';
import type { AuditEntryAt } from '../../shared/audit';
import type { NewRequest, RegisterSettings, RequestChangeInput, RequestExport, RequestExportFormat, RequestFilter, RequestView, RegisterCheck } from '../../shared/requests';

export type { AnswerPack, AnswerPackOptions } from './answer-pack';

/**
 * The request register behind one interface: the local store (core/requests/local-request-store.ts: requests.jsonl
 * in the data folder) today, a shared team store (PostgreSQL) later, with nothing above it changing. Every method
 * validates its input before anything is written; every change is also an entry in the audit trail. Views carry
 * everything a front shows (the deadline and days left included): the console and the CLI compute nothing.
 */
export interface RequestReadOptions {
  /** Decrypt the requester's name and contact into the view (default: hidden; never in logs). */
  withContact?: boolean;
}

export interface RequestStore {
  /** Registers a new request (its id: REQ-<year received>-<next number of that year>); returns its view. */
  create(input: NewRequest): Promise<RequestView>;
  /** NOT found: INVALID_INPUT saying so. */
  get(id: string, options?: RequestReadOptions): Promise<RequestView>;
  /** Sorted by deadline, soonest first (closed requests last, newest closed first). */
  list(filter?: RequestFilter, options?: RequestReadOptions): Promise<RequestView[]>;
  /** One change (update, pause, resume, extend, link, refuse, close, purge), refused with the reason when it does not apply. */
  apply(id: string, change: RequestChangeInput): Promise<RequestView>;
  /** Purges every closed request whose purge day has come; returns their ids. */
  purgeDue(): Promise<string[]>;
  /** The requests a filter keeps, as CSV (formula-safe cells) or JSON; the requester only `withContact`. */
  export(format: RequestExportFormat, options?: RequestReadOptions & { filter?: RequestFilter }): Promise<RequestExport>;
  settings(): Promise<RegisterSettings>;
  saveSettings(changes: Partial<RegisterSettings>): Promise<RegisterSettings>;
  /**
   * The answer pack of an answered or refused request (an open one: INVALID_INPUT saying so): the receipt PDF of
   * every act linked to it or under its id, and the letter to the requester in `language` (their name and contact
   * only `withContact`). Each pack made is a register event ('pack', with both files' SHA-256) and so an audit entry.
   */
  answerPack(id: string, options: AnswerPackOptions): Promise<AnswerPack>;
  /**
   * The register against the audit trail that vouches for it (what `audit verify` adds to its verdict). Given the
   * trail's entries just read (the audit view's reading), against those; a mismatch is checked again under the lock.
   */
  check(entries?: readonly AuditEntryAt[]): Promise<RegisterCheck>;
}
