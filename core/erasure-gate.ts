import { randomUUID } from 'node:crypto';
import { isPrivacyDeskError, PrivacyDeskError, invalidInput } from '../shared/errors';
import type { AuditEntry } from '../shared/audit';
import type { Profile } from '../shared/profile';
import { ERASURE_ACTIONS, type ErasureAction, type ErasureResult } from '../shared/users';
import type { LogoutOptions, LogoutResult } from '../shared/logout';
import { assertValidUid } from './input-problems';
import type { AuditLog } from './audit-log';
import type { ServiceClient } from './types';
import { logoutRefusal } from './logout-outcome';

/**
 * The one gate every irreversible call goes through: nothing else may call
 * client.anonymizeUser / deleteUser / eraseUser / sendLogout. Order matters:
 * validate, confirm, write the 'attempted' entry (no evidence, no act), act,
 * then record the outcome.
 */
export interface ErasureRequest {
  client: ServiceClient;
  profile: Profile;
  action: ErasureAction;
  uid: string;
  /** What the operator typed to confirm: must equal uid exactly. */
  confirmUid: string;
  reference?: string;
  audit: AuditLog;
  via: AuditEntry['via'];
}

export interface LogoutRequest {
  client: ServiceClient;
  profile: Profile;
  uid: string;
  options?: LogoutOptions;
  reference?: string;
  audit: AuditLog;
  via: AuditEntry['via'];
}

const ACTION_WORDS: Record<ErasureAction, { verb: string; done: string }> = {
  anonymize: { verb: 'anonymise', done: 'anonymised' },
  delete: { verb: 'delete', done: 'deleted' },
};

export async function performErasure(request: ErasureRequest): Promise<ErasureResult> {
  const { client, profile, action, uid, confirmUid, audit, via } = request;
  if (!(ERASURE_ACTIONS as readonly string[]).includes(action)) {
    throw invalidInput(`Unknown action "${String(action)}": choose anonymize or delete. Nothing was sent.`);
  }
  assertValidUid(uid);
  if (confirmUid !== uid) {
    throw new PrivacyDeskError({
      code: 'CONFIRMATION_MISMATCH',
      message: `The uid you typed does not match the uid to ${ACTION_WORDS[action].verb}; nothing was sent. Type the uid again exactly (spaces, case and accents count).`,
    });
  }
  const reference = checkReference(request.reference);
  const base = baseEntry(profile, action, uid, reference, via);

  await recordAttempt(audit, base);
  let result: ErasureResult;
  try {
    result = await client.eraseUser(action, uid);
  } catch (error) {
    await recordFailure(audit, base, error);
    throw error;
  }
  await recordOutcome(audit, { ...base, at: now(), outcome: 'succeeded', status: result.status, requestId: result.requestId }, `The user was ${ACTION_WORDS[action].done}`);
  return result;
}

export async function performLogout(request: LogoutRequest): Promise<LogoutResult> {
  const { client, profile, uid, audit, via } = request;
  assertValidUid(uid);
  const base = baseEntry(profile, 'logout', uid, checkReference(request.reference), via);

  await recordAttempt(audit, base);
  let result: LogoutResult;
  try {
    result = await client.sendLogout(uid, request.options);
  } catch (error) {
    await recordFailure(audit, base, error);
    throw error;
  }
  const entry: AuditEntry = { ...base, at: now(), outcome: result.ok ? 'succeeded' : 'failed', status: result.status, requestId: result.requestId };
  const refusal = logoutRefusal(result);
  if (refusal) entry.errorCode = refusal.code;
  await recordOutcome(audit, entry, result.ok ? 'The logout was accepted' : 'The logout was refused');
  return result;
}

function checkReference(reference: string | undefined): string | undefined {
  const trimmed = reference?.trim();
  if (!trimmed) return undefined;
  if (trimmed.length > 200) throw invalidInput('The reference is longer than 200 characters. Enter only the ticket or request number. Nothing was sent.');
  return trimmed;
}

const now = () => new Date().toISOString();

function baseEntry(profile: Profile, action: AuditEntry['action'], uid: string, reference: string | undefined, via: AuditEntry['via']): AuditEntry {
  // One actId per act: the outcome entries spread `base`, so they carry the same id as the attempt.
  const entry: AuditEntry = { at: now(), action, uid, profileId: profile.id, profileName: profile.name, baseUrl: profile.baseUrl, outcome: 'attempted', via, actId: randomUUID() };
  if (reference) entry.reference = reference;
  return entry;
}

async function recordAttempt(audit: AuditLog, entry: AuditEntry): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    const why = isPrivacyDeskError(error) ? error.message : 'The audit trail could not be written.';
    throw new PrivacyDeskError({ code: 'INTERNAL', message: `${why} Nothing was sent: no act happens without its audit record.` }, { cause: error });
  }
}

async function recordFailure(audit: AuditLog, base: AuditEntry, error: unknown): Promise<void> {
  const entry: AuditEntry = { ...base, at: now(), outcome: 'failed', errorCode: isPrivacyDeskError(error) ? error.code : 'INTERNAL' };
  if (isPrivacyDeskError(error)) {
    if (error.status !== undefined) entry.status = error.status;
    if (error.requestId !== undefined) entry.requestId = error.requestId;
  }
  // The act's own error matters more to the operator than a failed outcome line; the 'attempted' line is already there.
  await audit.append(entry).catch(() => undefined);
}

async function recordOutcome(audit: AuditLog, entry: AuditEntry, whatHappened: string): Promise<void> {
  try {
    await audit.append(entry);
  } catch (error) {
    throw new PrivacyDeskError(
      {
        code: 'INTERNAL',
        message: `${whatHappened} (status ${entry.status ?? 'unknown'}), but the audit trail could not record the outcome. Do not repeat the action; note the outcome by hand and check the disk.`,
      },
      { cause: error },
    );
  }
}
