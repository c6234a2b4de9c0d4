import type { ErasureAction } from './users';
import type { ErrorCode, Outcome } from './errors';

/** An entry is either the attempt, written before the request, or the act's outcome. */
export type AuditStage = 'attempted' | Outcome;

/** One irreversible act, as written to the audit trail before and after it is attempted. */
export interface AuditEntry {
  /** ISO 8601. */
  at: string;
  action: ErasureAction | 'logout';
  uid: string;
  profileId: string;
  profileName: string;
  baseUrl: string;
  /** Ticket or request number the operator gave. */
  reference?: string;
  /** 'attempted' is written before the request; the act's outcome (shared/errors.ts OUTCOMES) after. */
  outcome: AuditStage;
  status?: number;
  requestId?: string;
  errorCode?: ErrorCode;
  /**
   * Random UUID shared by an act's 'attempted' entry and its outcome entry, so a
   * reader can pair them. Absent on entries written before it existed.
   */
  actId?: string;
  /** Where the act was started from. */
  via: 'app' | 'cli';
}
