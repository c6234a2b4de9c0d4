import { errorText, isPrivacyDeskError, type Outcome, type Quote } from '../../shared/errors';
import type { AuditRecord } from '../../shared/audit';
import type { MessageText } from '../../shared/message-text';
import { msg } from '../../shared/messages';
import type { ErasureAction, ErasureLogoutStep } from '../../shared/users';
import type { VerificationResult } from '../../shared/audit';
import type { AuditLog } from '../audit-log';
import { ActRecordError, auditFailureParts } from '../audit-write-error';

/**
 * How the gate writes an act's entries, and what it says when the audit trail cannot take one (a full disk,
 * a size limit, a read-only folder, its lock). Every such ending says one consistent thing, in this order:
 * what was done, what the trail holds and lacks, what to do. None says what the front does next (the app
 * writes a kept outcome once it can; a CLI command ends first): each front adds that itself.
 */

const theErasure = (action: ErasureAction): MessageText => msg(action === 'anonymize' ? 'erasure.the.anonymize' : 'erasure.the.delete');
const verb = (action: ErasureAction): MessageText => msg(action === 'anonymize' ? 'action.verb.anonymize' : 'action.verb.delete');
const done = (action: ErasureAction): MessageText => msg(action === 'anonymize' ? 'action.done.anonymize' : 'action.done.delete');
const outcomeWords = (outcome: Outcome): MessageText => msg(`outcome.${outcome}`);
const logoutEnded = (outcome: Outcome): MessageText => msg(`logout.ended.${outcome}`);
const checkFound = (result: VerificationResult): MessageText => msg(`check.found.${result}`);

/** What to note by hand: "done, status 200, request id r-1". */
function noted(outcome: Outcome, status: number | undefined, requestId: string | undefined): MessageText {
  if (status === undefined) return msg('audit.noted.outcome', { outcome: outcomeWords(outcome) });
  if (!requestId) return msg('audit.noted.status', { outcome: outcomeWords(outcome), status });
  return msg('audit.noted.request', { outcome: outcomeWords(outcome), status, requestId });
}

/** "the audit trail <file> could not record that: <why>", with the fix and the system's code, from what the write threw. */
function gapOf(writeError: unknown): { gap: MessageText; fix: MessageText; quote: Quote | undefined; path: string; why: MessageText } {
  const { path, why, fix, quote } = auditFailureParts(writeError);
  return { gap: msg('audit.cannotRecord', { path, why }), fix, quote, path, why };
}

/** The 'attempted' entry, before a request leaves: no entry, no request. `before`: the logout already sent for this erasure. */
export async function recordAttempt(audit: AuditLog, entry: AuditRecord, before?: { action: ErasureAction; logout: ErasureLogoutStep }): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    const { path, why, fix, quote } = auditFailureParts(error);
    const failure = msg('audit.cannotWrite', { path, why });
    if (!before) throw new ActRecordError({ outcome: 'not-sent', text: msg('gate.notWrittenNothingSent', { failure, fix }), quote }, {}, error);
    const { action, logout } = before;
    throw new ActRecordError(
      { outcome: 'not-sent', text: msg('gate.notWrittenAfterLogout', { failure, theErasure: theErasure(action), logout: outcomeWords(logout.outcome), fix, verb: verb(action) }), quote },
      { action, logoutSent: logout.outcome },
      error,
    );
  }
}

/** The outcome entry of a request that ended in an error. */
export function failureEntry(base: AuditRecord, error: unknown): AuditRecord {
  const known = isPrivacyDeskError(error);
  const entry: AuditRecord = { ...base, outcome: known ? error.outcome : 'unknown', errorCode: known ? error.code : 'INTERNAL' };
  if (known) {
    if (error.status !== undefined) entry.status = error.status;
    if (error.requestId !== undefined) entry.requestId = error.requestId;
  }
  return entry;
}

/**
 * Records how a request that ended in an error ended. When the trail cannot take it, the request's own error
 * is still what the operator reads first, followed by what the trail lacks.
 */
export async function recordFailure(audit: AuditLog, base: AuditRecord, error: unknown): Promise<void> {
  const entry = failureEntry(base, error);
  try {
    await audit.append(entry);
  } catch (writeError) {
    const { path, why, fix } = gapOf(writeError);
    const outcome = entry.outcome as Outcome;
    const problem = isPrivacyDeskError(error) ? errorText(error) : msg('code.INTERNAL');
    throw new ActRecordError(
      {
        outcome,
        status: entry.status,
        requestId: entry.requestId,
        text: msg('gate.failureNotRecorded', { problem, path, why, noted: noted(outcome, entry.status, undefined), fix }),
        quote: isPrivacyDeskError(error) ? error.quote : undefined,
      },
      { unrecorded: { step: base.action === 'logout' ? 'logout' : 'erasure', outcome } },
      writeError,
    );
  }
}

/** Records a request's answer: a done erasure, or a logout's answer (any outcome). */
export async function recordOutcome(audit: AuditLog, entry: AuditRecord): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    const { gap, fix, quote } = gapOf(error);
    const outcome = entry.outcome as Outcome;
    const isLogout = entry.action === 'logout';
    const text = isLogout
      ? msg('gate.logoutOutcomeNotRecorded', { ended: logoutEnded(outcome), gap, noted: noted(outcome, entry.status, entry.requestId), fix })
      : msg('gate.erasureOutcomeNotRecorded', { done: done(entry.action as ErasureAction), gap, noted: noted(outcome, entry.status, entry.requestId), fix });
    throw new ActRecordError({ outcome, status: entry.status, requestId: entry.requestId, text, quote }, { unrecorded: { step: isLogout ? 'logout' : 'erasure', outcome } }, error);
  }
}

/**
 * The logout step of "log out, then erase" was sent, but the trail could not take how it ended: the erasure is
 * not sent. `error`: what recording the logout threw.
 */
export function logoutStepNotRecorded(error: ActRecordError | Error, action: ErasureAction): Error {
  const unrecorded = error instanceof ActRecordError ? error.unrecorded : undefined;
  if (!(error instanceof ActRecordError) || !unrecorded) return error; // its attempt could not be written: nothing was sent at all, as the error says
  const { gap, fix, quote } = gapOf(error.cause);
  return new ActRecordError(
    {
      outcome: 'not-sent',
      status: error.status,
      requestId: error.requestId,
      quote,
      text: msg('gate.logoutStepNotRecorded', {
        ended: logoutEnded(unrecorded.outcome),
        gap,
        done: done(action),
        theErasure: theErasure(action),
        noted: noted(unrecorded.outcome, error.status, error.requestId),
        fix,
        verb: verb(action),
      }),
    },
    { unrecorded, action, logoutSent: unrecorded.outcome },
    error,
  );
}

/** The check after a done, recorded erasure found its result, and the trail could not take it. */
export function checkNotRecorded(writeError: unknown, action: ErasureAction, found: { verification: VerificationResult; status?: number | undefined; requestId?: string | undefined }): ActRecordError {
  const { gap, fix, quote } = gapOf(writeError);
  return new ActRecordError(
    { outcome: 'done', status: found.status, requestId: found.requestId, quote, text: msg('gate.checkResultNotRecorded', { done: done(action), found: checkFound(found.verification), gap, fix }) },
    { unrecorded: { step: 'check', outcome: 'done' } },
    writeError,
  );
}
