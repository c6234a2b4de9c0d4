import { randomUUID } from 'node:crypto';
import { isPrivacyDeskError, PrivacyDeskError, invalidInput, type ErrorCode, type Outcome } from '../shared/errors';
import type { AuditOperation, AuditRecord, AuditVia } from '../shared/audit';
import type { Profile } from '../shared/profile';
import { ERASURE_ACTIONS, type ErasureAction, type ErasureResult } from '../shared/users';
import type { LogoutOptions, LogoutResult } from '../shared/logout';
import { ACTION_WORDS } from './action-words';
import type { AuditLog } from './audit-log';
import { assertValidUid } from './input-problems';
import type { ServiceActs } from './service-acts';
import { connectToService, type ServiceConnection } from './service-client';
import type { ServiceClient, ServiceClientOptions } from './types';

/**
 * The one gate every irreversible call goes through. It alone holds the
 * service's irreversible acts (core/service-acts.ts): callers get a gate whose
 * methods validate, confirm, write the 'attempted' entry (no evidence, no act),
 * act, then record the outcome. ESLint lets no other file open a connection.
 */
export interface ErasureGate {
  erase(order: ErasureOrder): Promise<ErasureResult>;
  logout(order: LogoutOrder): Promise<LogoutResult>;
}

/** An erasure as the operator confirmed it. */
export interface ErasureOrder {
  action: ErasureAction;
  uid: string;
  /** What the operator typed to confirm: must equal uid exactly. */
  confirmUid: string;
  reference?: string;
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
  return { client, gate: createErasureGate({ acts, profile: client.profile, ...record, ...(options.now ? { now: options.now } : {}) }) };
}

export function createErasureGate({ acts, profile, audit, via, operator, appVersion, now = Date.now }: GateRecord & { acts: ServiceActs; profile: Profile; now?: () => number }): ErasureGate {
  const at = () => isoWithOffset(new Date(now()));
  const baseEntry = (action: AuditOperation, uid: string, reference: string | undefined): AuditRecord => {
    // One actId per act: the outcome entries spread `base`, so they carry the same id as the attempt.
    const entry: AuditRecord = { at: at(), actId: randomUUID(), action, outcome: 'attempted', uid, profileId: profile.id, profileName: profile.name, baseUrl: profile.baseUrl, operator, appVersion, via };
    if (reference) entry.reference = reference;
    return entry;
  };
  return {
    async erase(order) {
      const { action, uid } = order;
      if (!(ERASURE_ACTIONS as readonly string[]).includes(action)) {
        throw invalidInput(`Unknown action "${String(action)}": choose anonymize or delete. Nothing was sent.`);
      }
      assertValidUid(uid);
      if (order.confirmUid !== uid) {
        throw new PrivacyDeskError({
          code: 'CONFIRMATION_MISMATCH',
          message: `The uid you typed does not match the uid to ${ACTION_WORDS[action].verb}; nothing was sent. Type the uid again exactly (spaces, case and accents count).`,
        });
      }
      const base = baseEntry(action, uid, checkReference(order.reference));
      await recordAttempt(audit, base);
      let result: ErasureResult;
      try {
        result = await acts.erase(action, uid);
      } catch (error) {
        await recordFailure(audit, { ...base, at: at() }, error);
        throw error;
      }
      await recordOutcome(audit, { ...base, at: at(), outcome: result.outcome, status: result.status, requestId: result.requestId }, `The user was ${ACTION_WORDS[action].done}`);
      return result;
    },

    async logout(order) {
      const { uid } = order;
      assertValidUid(uid);
      const base = baseEntry('logout', uid, checkReference(order.reference));
      await recordAttempt(audit, base);
      let result: LogoutResult;
      try {
        result = await acts.sendLogout(uid, order.options);
      } catch (error) {
        await recordFailure(audit, { ...base, at: at() }, error);
        throw error;
      }
      const entry: AuditRecord = { ...base, at: at(), outcome: result.outcome, status: result.status, requestId: result.requestId };
      if (result.errorCode) entry.errorCode = result.errorCode;
      await recordOutcome(audit, entry, result.ok ? 'The logout was accepted' : 'The logout was answered');
      return result;
    },
  };
}

function checkReference(reference: string | undefined): string | undefined {
  const trimmed = reference?.trim();
  if (!trimmed) return undefined;
  if (trimmed.length > 200) throw invalidInput('The reference is longer than 200 characters. Enter only the ticket or request number. Nothing was sent.');
  return trimmed;
}

async function recordAttempt(audit: AuditLog, entry: AuditRecord): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    const why = isPrivacyDeskError(error) ? error.message : 'The audit trail could not be written.';
    throw new PrivacyDeskError({ code: 'AUDIT_WRITE_FAILED', outcome: 'not-sent', message: `${why} Nothing was sent: no act happens without its audit record.` }, { cause: error });
  }
}

async function recordFailure(audit: AuditLog, base: AuditRecord, error: unknown): Promise<void> {
  const known = isPrivacyDeskError(error);
  const outcome: Outcome = known ? error.outcome : 'unknown';
  const errorCode: ErrorCode = known ? error.code : 'INTERNAL';
  const entry: AuditRecord = { ...base, outcome, errorCode };
  if (known) {
    if (error.status !== undefined) entry.status = error.status;
    if (error.requestId !== undefined) entry.requestId = error.requestId;
  }
  // The act's own error matters more to the operator than a failed outcome line; the 'attempted' line is already there.
  await audit.append(entry).catch(() => undefined);
}

async function recordOutcome(audit: AuditLog, entry: AuditRecord, whatHappened: string): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    throw new PrivacyDeskError(
      {
        code: 'AUDIT_WRITE_FAILED',
        // The act itself happened: its outcome stands, only the record is missing.
        outcome: entry.outcome === 'attempted' || entry.outcome === 'verification' ? 'unknown' : entry.outcome,
        ...(entry.status !== undefined ? { status: entry.status } : {}),
        ...(entry.requestId !== undefined ? { requestId: entry.requestId } : {}),
        message: `${whatHappened} (status ${entry.status ?? 'unknown'}), but the audit trail could not record the outcome. Do not repeat the action; note the outcome by hand and check the disk.`,
      },
      { cause: error },
    );
  }
}

/** ISO 8601 with the local offset (2026-11-22T18:02:11.123+01:00): a reader months later knows the operator's wall time. */
export function isoWithOffset(date: Date): string {
  const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}${sign}${pad(offset / 60)}:${pad(offset % 60)}`;
}
