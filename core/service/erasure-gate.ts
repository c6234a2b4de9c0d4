import { randomUUID } from 'node:crypto';
import { isPrivacyDeskError, PrivacyDeskError, invalidInput, type ErrorCode, type Outcome } from '../../shared/errors';
import type { AuditOperation, AuditRecord, AuditVia, BatchAuditSummary } from '../../shared/audit';
import type { Profile } from '../../shared/profile';
import { ERASURE_ACTIONS, type ErasureAction, type ErasureLogoutStep, type ErasureResult } from '../../shared/users';
import type { LogoutOptions, LogoutResult } from '../../shared/logout';
import { actionPhrases, isErasureAction, unknownAction } from '../action-words';
import type { AuditLog } from '../audit-log';
import { assertValidUid, referenceProblemText, uidProblemText } from '../input-problems';
import type { MessageText } from '../../shared/message-text';
import { referenceProblem } from '../../shared/reference';
import { uidProblem } from '../../shared/uid';
import type { ServiceActs } from './service-acts';
import { connectToService, type ServiceConnection } from './service-client';
import type { ServiceClient, ServiceClientOptions } from '../types';
import { isoWithOffset } from '../local-time';
import { checkNotRecorded, failureEntry, logoutStepNotRecorded, recordAttempt, recordFailure, recordOutcome } from './audit-record';
import { auditFailureParts } from '../audit-write-error';
import { msg } from '../../shared/messages';
import type { ConformanceRun } from '../../shared/logout-conformance';
import { createConformanceSender, type ConformanceSender } from './logout-conformance-send';
import { runGatedConformance, type ConformanceOrder } from './logout-conformance-gate';

// The service folder's only door: everything outside core/service/ imports from this file alone
// (ESLint and core/service/erasure-gate.test.ts enforce it). What passes is read-only or gated.
export type { ServiceConnection } from './service-client';
export { fetchSandboxUserState, simulateSandboxLogin } from './sandbox-inspection';
export { logoutRefusal } from './logout-outcome';
export type { ConformanceOrder } from './logout-conformance-gate';

/**
 * The one gate every irreversible call goes through. It alone holds the
 * service's irreversible acts (core/service/service-acts.ts): callers get a gate whose
 * methods validate, confirm, write the 'attempted' entry (no evidence, no act),
 * act, then record the outcome. ESLint lets no other file open a connection.
 */
export interface ErasureGate {
  erase(order: ErasureOrder): Promise<ErasureResult>;
  logout(order: LogoutOrder): Promise<LogoutResult>;
  /** The logout conformance run: one crafted token per rule, each send audited (a must-refuse one as a deliberate test). */
  logoutConformance(order: ConformanceOrder): Promise<ConformanceRun>;
  /** The gate for one batch job's items (the typed batch confirmation was checked before the job was created). */
  openBatch(job: BatchJobOrder): BatchGate;
}

export interface BatchJobOrder {
  jobId: string;
  action: ErasureAction;
  /** End each user's sessions first (a logout token, audited under the item's act id). */
  logoutFirst: boolean;
  /** The job's reference, for its summary entry (items carry their own). */
  reference?: string;
}

export interface BatchOrder {
  uid: string;
  reference?: string;
  /** The same id for every attempt at one item in a run: its retries are steps of one act. Default: a new one. */
  actId?: string;
  /** The uid as pasted, when the operator chose to send its trimmed form (`uid`): recorded on the item's audit entries. */
  pastedUid?: string;
}

/** How one attempt of a batch item ended; never thrown, so the runner decides what comes next. */
export interface BatchSendResult {
  outcome: Outcome;
  status?: number;
  requestId?: string;
  /** Set unless done. */
  error?: PrivacyDeskError;
}

export interface BatchAttempt {
  /** Sends the admitted order (once). */
  send(): Promise<BatchSendResult>;
  /**
   * Instead of sending it: its 'attempted' entries get a not-sent outcome with `reason` (the run was paused or
   * stopped between its records and its request), so the trail shows it never left. Once, and never after send().
   */
  withdraw(reason: PrivacyDeskError): BatchSendResult;
}

/**
 * Batch items go through the gate in groups, so a large batch is limited by the service and not by fsync:
 * admit() writes the 'attempted' entries of a group (and the outcomes gathered since) in ONE durable write,
 * and only then hands out the attempts; outcome entries are gathered and written with the next group or by flush().
 */
export interface BatchGate {
  /** Throws AUDIT_WRITE_FAILED (not-sent) when the entries could not be written: send none of them. */
  admit(orders: readonly BatchOrder[]): Promise<BatchAttempt[]>;
  /**
   * Writes the gathered outcome entries (the act happened: a failed write keeps them in the audit log's pending list),
   * and with them the run's summary when given (action 'batch', outcome 'summary').
   */
  flush(summary?: BatchAuditSummary): Promise<void>;
}

/** An erasure as the operator confirmed it. */
export interface ErasureOrder {
  action: ErasureAction;
  uid: string;
  /** What the operator typed to confirm: must equal uid exactly. */
  confirmUid: string;
  reference?: string;
  /** End the user's sessions first (a logout token, audited under the same act id). Default true. */
  logoutFirst?: boolean;
}

export interface LogoutOrder {
  uid: string;
  options?: LogoutOptions;
  reference?: string;
}

export interface GateRecord {
  audit: AuditLog;
  via: AuditVia;
  /** The OS user acting, and the app's version: every entry names them. */
  operator: string;
  appVersion: string;
}

export interface GatedConnection {
  client: ServiceClient;
  gate: ErasureGate;
}

/** Opens a service connection whose irreversible calls stay behind the gate. `connect` is a test hook. */
export function openGatedConnection(options: ServiceClientOptions, record: GateRecord, connect: (options: ServiceClientOptions) => ServiceConnection = connectToService): GatedConnection {
  const { client, acts } = connect(options);
  const conformance = createConformanceSender(options);
  return { client, gate: createErasureGate({ acts, conformance, profile: client.profile, ...record, ...(options.now ? { now: options.now } : {}) }) };
}

export function createErasureGate({ acts, conformance, profile, audit, via, operator, appVersion, now = Date.now }: GateRecord & { acts: ServiceActs; conformance?: ConformanceSender; profile: Profile; now?: () => number }): ErasureGate {
  const at = () => isoWithOffset(new Date(now()));
  // One actId per act: every entry of the act (logout step, erasure step, verification) spreads a base made with the same id.
  const baseEntry = (action: AuditOperation, uid: string, reference: string | undefined, actId: string): AuditRecord => {
    const entry: AuditRecord = { at: at(), actId, action, outcome: 'attempted', uid, profileId: profile.id, profileName: profile.name, baseUrl: profile.baseUrl, operator, appVersion, via };
    if (reference) entry.reference = reference;
    return entry;
  };

  async function sendLogout(base: AuditRecord, options: LogoutOptions | undefined): Promise<LogoutResult> {
    await recordAttempt(audit, base);
    let result: LogoutResult;
    try {
      result = await acts.sendLogout(base.uid, options);
    } catch (error) {
      await recordFailure(audit, { ...base, at: at() }, error);
      throw error;
    }
    const entry: AuditRecord = { ...base, at: at(), outcome: result.outcome, status: result.status, requestId: result.requestId };
    if (result.errorCode) entry.errorCode = result.errorCode;
    await recordOutcome(audit, entry);
    return result;
  }

  /**
   * The logout step of "log out, then erase". Its failure does not block the erasure the operator confirmed
   * (the result shows it); only a failing audit trail stops the act before the erasure is sent.
   */
  async function logoutStep(base: AuditRecord, action: ErasureAction): Promise<ErasureLogoutStep> {
    try {
      return stepOf(await sendLogout(base, undefined));
    } catch (error) {
      if (isPrivacyDeskError(error) && error.code === 'AUDIT_WRITE_FAILED') throw logoutStepNotRecorded(error, action);
      return isPrivacyDeskError(error) ? stepOf(error) : { outcome: 'unknown', errorCode: 'INTERNAL' };
    }
  }

  /**
   * After a done erasure: repeats the same confirmed act. Once the first took effect the old uid no longer
   * resolves and the service answers 404, so the repeat can only ever erase what the operator confirmed.
   * It is a request like any other: its 'attempted' entry is on disk before it leaves.
   */
  async function verifyErased(base: AuditRecord, action: ErasureAction): Promise<Pick<ErasureResult, 'verification' | 'verificationStatus'>> {
    const entry: AuditRecord = { ...base, outcome: 'verification', verification: 'could-not-check' };
    try {
      await recordAttempt(audit, { ...base, at: at() });
    } catch {
      // Nothing may leave without its attempted entry: the check is skipped, and said so.
      entry.errorCode = 'AUDIT_WRITE_FAILED';
      await audit.append({ ...entry, at: at() }).catch(() => undefined);
      return { verification: 'could-not-check' };
    }
    try {
      const again = await acts.erase(action, base.uid);
      entry.verification = 'not-verified';
      entry.status = again.status;
      if (again.requestId !== undefined) entry.requestId = again.requestId;
    } catch (error) {
      const known = isPrivacyDeskError(error);
      entry.verification = known && error.code === 'NOT_FOUND' ? 'verified' : 'could-not-check';
      if (known && error.status !== undefined) entry.status = error.status;
      if (known && error.requestId !== undefined) entry.requestId = error.requestId;
      if (entry.verification === 'could-not-check') entry.errorCode = known ? error.code : 'INTERNAL';
    }
    const verification = entry.verification;
    try {
      await audit.append({ ...entry, at: at() });
    } catch (error) {
      // The erasure is done and its outcome recorded; only the check's result is missing.
      throw checkNotRecorded(error, action, { verification, status: entry.status, requestId: entry.requestId });
    }
    return { verification, ...(entry.status !== undefined ? { verificationStatus: entry.status } : {}) };
  }

  function openBatch(job: BatchJobOrder): BatchGate {
    // The job's action comes from a file on disk: anything but an erasure action is refused before any entry or request.
    if (!isErasureAction(job.action)) throw unknownAction(job.action);
    let outcomes: AuditRecord[] = [];
    const batchEntry = (action: AuditOperation, order: BatchOrder, actId: string): AuditRecord => ({
      ...baseEntry(action, order.uid, order.reference, actId),
      via: 'batch',
      jobId: job.jobId,
      ...(order.pastedUid !== undefined ? { pastedUid: order.pastedUid } : {}),
    });
    const outcomeOf = (base: AuditRecord, result: { outcome: Outcome; status?: number | undefined; requestId?: string | undefined; errorCode?: ErrorCode | undefined }): AuditRecord => {
      const entry: AuditRecord = { ...base, at: at(), outcome: result.outcome };
      if (result.status !== undefined) entry.status = result.status;
      if (result.requestId !== undefined) entry.requestId = result.requestId;
      if (result.errorCode !== undefined) entry.errorCode = result.errorCode;
      return entry;
    };
    const takeOutcomes = () => {
      const taken = outcomes;
      outcomes = [];
      return taken;
    };

    return {
      async admit(orders) {
        // Each order is checked on its own: one that can never be sent fails alone, with its own reason, and the others go on.
        const prepared: ({ order: BatchOrder; logoutBase?: AuditRecord; eraseBase: AuditRecord } | { refused: PrivacyDeskError })[] = orders.map((order) => {
          const problem = orderProblem(order);
          if (problem) return { refused: invalidInput(msg('input.nothingSentForUid', { problem })) };
          const checked: BatchOrder = { uid: order.uid, ...(order.pastedUid !== undefined ? { pastedUid: order.pastedUid } : {}) };
          const reference = order.reference?.trim();
          if (reference) checked.reference = reference;
          const actId = order.actId ?? randomUUID();
          const eraseBase = batchEntry(job.action, checked, actId);
          return job.logoutFirst ? { order: checked, logoutBase: batchEntry('logout', checked, actId), eraseBase } : { order: checked, eraseBase };
        });
        const attempted = prepared.flatMap((item) => ('refused' in item ? [] : item.logoutBase ? [item.logoutBase, item.eraseBase] : [item.eraseBase]));
        // The gathered outcomes ride along: if this write fails, the audit log keeps them (the acts happened).
        try {
          await audit.appendMany([...takeOutcomes(), ...attempted]);
        } catch (error) {
          // The runner stops the job and says that nothing more was sent (no act without its audit record).
          const { path, why, fix, quote } = auditFailureParts(error);
          throw new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent', text: msg('audit.notWritten', { path, why, fix }), ...(quote ? { quote } : {}) }, { cause: error });
        }
        return prepared.map((item): BatchAttempt => {
          if ('refused' in item) return { send: async () => ({ outcome: 'not-sent', error: item.refused }), withdraw: () => ({ outcome: 'not-sent', error: item.refused }) };
          const { order, logoutBase, eraseBase } = item;
          let sent = false;
          return {
            withdraw(reason) {
              if (sent) throw new Error('A batch attempt is sent once (or withdrawn)');
              sent = true;
              for (const base of logoutBase ? [logoutBase, eraseBase] : [eraseBase]) outcomes.push(failureEntry({ ...base, at: at() }, reason));
              return { outcome: 'not-sent', error: reason };
            },
            async send(): Promise<BatchSendResult> {
              if (sent) throw new Error('A batch attempt is sent once (or withdrawn); admit the item again to retry it');
              sent = true;
              if (logoutBase) {
                // As for a single act, the logout step's own failure does not stop the erasure that was confirmed.
                try {
                  const result = await acts.sendLogout(order.uid);
                  outcomes.push(outcomeOf(logoutBase, result));
                } catch (error) {
                  outcomes.push(failureEntry({ ...logoutBase, at: at() }, error));
                }
              }
              try {
                const erased = await acts.erase(job.action, order.uid);
                outcomes.push(outcomeOf(eraseBase, erased));
                return { outcome: erased.outcome, status: erased.status, ...(erased.requestId !== undefined ? { requestId: erased.requestId } : {}) };
              } catch (error) {
                const known = isPrivacyDeskError(error) ? error : new PrivacyDeskError({ code: 'INTERNAL', outcome: 'unknown', text: msg('gate.unexpectedError', { purpose: actionPhrases(job.action).purpose(order.uid) }) }, { cause: error });
                outcomes.push(failureEntry({ ...eraseBase, at: at() }, known));
                const result: BatchSendResult = { outcome: known.outcome, error: known };
                if (known.status !== undefined) result.status = known.status;
                if (known.requestId !== undefined) result.requestId = known.requestId;
                return result;
              }
            },
          };
        });
      },
      async flush(summary) {
        const taken: AuditRecord[] = takeOutcomes();
        if (summary) taken.push({ ...batchEntry('batch', { uid: '', ...(job.reference ? { reference: job.reference } : {}) }, randomUUID()), outcome: 'summary', batch: summary });
        if (taken.length > 0) await audit.appendMany(taken);
      },
    };
  }

  return {
    openBatch,
    async erase(order) {
      const { action, uid } = order;
      if (!(ERASURE_ACTIONS as readonly string[]).includes(action)) {
        throw unknownAction(action);
      }
      assertValidUid(uid);
      if (order.confirmUid !== uid) {
        throw new PrivacyDeskError({
          code: 'CONFIRMATION_MISMATCH',
          text: msg('gate.uidMismatch', { verb: actionPhrases(action).verb }),
        });
      }
      const reference = checkReference(order.reference);
      const actId = randomUUID();
      const logout = order.logoutFirst === false ? undefined : await logoutStep(baseEntry('logout', uid, reference, actId), action);
      const base = baseEntry(action, uid, reference, actId);
      await recordAttempt(audit, base, logout ? { action, logout } : undefined);
      let erased: ErasureResult;
      try {
        erased = await acts.erase(action, uid);
      } catch (error) {
        await recordFailure(audit, { ...base, at: at() }, error);
        throw error;
      }
      await recordOutcome(audit, { ...base, at: at(), outcome: erased.outcome, status: erased.status, requestId: erased.requestId });
      const verified = await verifyErased(base, action);
      return { ...erased, ...(logout ? { logout } : {}), ...verified };
    },

    async logout(order) {
      assertValidUid(order.uid);
      const base = baseEntry('logout', order.uid, checkReference(order.reference), randomUUID());
      // A deliberately broken token (the tester's negative cases) is a test: its refusal is the expected result.
      const negativeCase = order.options?.negativeCase;
      return sendLogout(negativeCase ? { ...base, test: { case: negativeCase } } : base, order.options);
    },

    async logoutConformance(order) {
      if (!conformance) throw new PrivacyDeskError({ code: 'INTERNAL', text: msg('gate.unexpectedError', { purpose: msg('purpose.sendLogout', { uid: order.uid }) }) });
      const entry = (uid: string, reference: string | undefined, actId: string) => baseEntry('logout', uid, reference, actId);
      return runGatedConformance(order, { sender: conformance, profile, audit, at, baseEntry: entry, checkReference });
    },
  };
}

function stepOf(ended: { outcome: Outcome; status?: number | undefined; errorCode?: ErrorCode | undefined; code?: ErrorCode; requestId?: string | undefined }): ErasureLogoutStep {
  const step: ErasureLogoutStep = { outcome: ended.outcome };
  if (ended.status !== undefined) step.status = ended.status;
  const code = ended.errorCode ?? ended.code;
  if (code !== undefined) step.errorCode = code;
  if (ended.requestId !== undefined) step.requestId = ended.requestId;
  return step;
}

function checkReference(reference: string | undefined): string | undefined {
  const problem = referenceProblem(reference);
  if (problem) throw invalidInput(msg('input.nothingSent', { problem: referenceProblemText(problem) }));
  return reference?.trim() || undefined;
}

/** Why a batch order can never be sent (the same rules as a single act's), or undefined. */
function orderProblem(order: BatchOrder): MessageText | undefined {
  const uid = uidProblem(order.uid);
  if (uid) return uidProblemText(uid);
  const reference = referenceProblem(order.reference);
  return reference ? referenceProblemText(reference) : undefined;
}
