import type { ErasureAction } from './users';
import type { BatchAuditSummary, VerificationResult } from './audit';
import type { Outcome } from './errors';

/**
 * The acts linked to a request as its page shows them: read from the audit trail (what happened, not what was
 * meant), one line per act or batch job, each with how it ended.
 */
export interface RequestActLine {
  kind: 'act';
  actId: string;
  uid: string;
  action: ErasureAction;
  /** The erasure's outcome; 'attempted' when the trail holds no outcome yet (the app stopped mid-act). */
  outcome: Outcome | 'attempted';
  verification?: VerificationResult;
  at: string;
}

export interface RequestBatchLine {
  kind: 'batch';
  batchId: string;
  /** Absent while the job has no summary entry (running, or stopped before its end was written). */
  summary?: BatchAuditSummary;
  at?: string;
}

export type RequestActsLine = RequestActLine | RequestBatchLine;
