import { isPrivacyDeskError, PrivacyDeskError, type Outcome, type Quote } from '../shared/errors';
import type { MessageText } from '../shared/message-text';
import { msg } from '../shared/messages';
import type { ErasureAction } from '../shared/users';

/**
 * The audit trail could not be written. Besides its message it keeps the parts, so whoever reports it
 * (the gate, for each way an act can meet a full disk: core/service/audit-record.ts) says one consistent
 * thing: which file, why, what fixes it — and the system's own code, quoted.
 */
export class AuditWriteError extends PrivacyDeskError {
  constructor(
    /** The file that could not be written (or the team database's address). */
    readonly path: string,
    /** Why: an audit.why.* phrase ("the disk is full"). */
    readonly why: MessageText,
    /** What fixes it, an audit.fix.* phrase that starts a sentence ("Free some disk space (or raise the limit)"). */
    readonly fix: MessageText,
    /** The system's code (ENOSPC, EFBIG…), when it gave one. */
    readonly systemCode: string | undefined,
    cause: unknown,
    /** TEAM_STORE_UNAVAILABLE when the trail is the team database's (core/team/pg-audit-write-error.ts). */
    code: 'AUDIT_WRITE_FAILED' | 'TEAM_STORE_UNAVAILABLE' = 'AUDIT_WRITE_FAILED',
  ) {
    super({ code, outcome: 'not-sent', text: msg('audit.notWritten', { path, why, fix }), ...(systemCode ? { quote: { from: 'system', text: systemCode } } : {}) }, { cause });
    this.name = 'AuditWriteError';
  }
}

/** A request of an act that reached the service (or may have) whose outcome the audit trail could not record. */
export interface UnrecordedStep {
  /** The logout sent first, the erasure (or a lone logout), or the check after a done erasure. */
  step: 'logout' | 'erasure' | 'check';
  /** How that request ended, as the service answered it. */
  outcome: Outcome;
}

/**
 * An act stopped or ended by the audit trail, with what the fronts must say besides the message:
 * which outcome the trail lacks (the act happened: "do not repeat it, note it by hand"), and whether a
 * logout was sent before an erasure that was not (so "nothing reached the service" would be false).
 */
export class ActRecordError extends PrivacyDeskError {
  readonly unrecorded?: UnrecordedStep;
  /** The erasure the act was for, when a logout step came first. */
  readonly action?: ErasureAction;
  /** How the logout sent before the erasure ended, when the erasure itself was not sent. */
  readonly logoutSent?: Outcome;

  constructor(
    info: { outcome: Outcome; text: MessageText; quote?: Quote | undefined; status?: number | undefined; requestId?: string | undefined },
    parts: { unrecorded?: UnrecordedStep; action?: ErasureAction; logoutSent?: Outcome },
    cause: unknown,
  ) {
    super(
      {
        code: 'AUDIT_WRITE_FAILED',
        outcome: info.outcome,
        text: info.text,
        ...(info.quote ? { quote: info.quote } : {}),
        ...(info.status !== undefined ? { status: info.status } : {}),
        ...(info.requestId !== undefined ? { requestId: info.requestId } : {}),
      },
      { cause },
    );
    this.name = 'ActRecordError';
    if (parts.unrecorded) this.unrecorded = parts.unrecorded;
    if (parts.action) this.action = parts.action;
    if (parts.logoutSent) this.logoutSent = parts.logoutSent;
  }
}

/** Which file, why and what to do, from whatever the trail's write threw: an AuditWriteError, the data folder's lock, anything else. */
export function auditFailureParts(error: unknown): { path: string; why: MessageText; fix: MessageText; quote?: Quote } {
  if (error instanceof AuditWriteError) return { path: error.path, why: error.why, fix: error.fix, ...(error.quote ? { quote: error.quote } : {}) };
  // core/data-lock.ts: the audit lock could not be taken, or was lost while writing.
  if (isPrivacyDeskError(error)) return { path: 'audit.jsonl', why: msg('audit.why.lock'), fix: msg('audit.fix.lock') };
  return { path: 'audit.jsonl', why: msg('audit.why.unexpected'), fix: msg('audit.fix.unexpected') };
}
