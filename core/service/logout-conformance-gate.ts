import { randomUUID } from 'node:crypto';
import type { AuditRecord } from '../../shared/audit';
import { PrivacyDeskError } from '../../shared/errors';
import { overallVerdict, verdictCounts, type ConformanceRun } from '../../shared/logout-conformance';
import { msg } from '../../shared/messages';
import { isLocalBaseUrl, type Profile } from '../../shared/profile';
import type { AuditLog } from '../audit-log';
import { assertValidUid } from '../input-problems';
import { recordAttempt, recordOutcome } from './audit-record';
import { runConformanceCases } from './logout-conformance-run';
import type { ConformanceSender } from './logout-conformance-send';

/** A conformance run as the operator asked for it. */
export interface ConformanceOrder {
  uid: string;
  /** For a live profile: the uid typed again (valid tokens end its real sessions). */
  confirmUid?: string;
  reference?: string;
}

export interface ConformanceGateParts {
  sender: ConformanceSender;
  profile: Profile;
  audit: AuditLog;
  at: () => string;
  baseEntry: (uid: string, reference: string | undefined, actId: string) => AuditRecord;
  checkReference: (reference: string | undefined) => string | undefined;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * Validate → confirm → for each send: audit "attempted", send, audit the outcome. A send whose token must be refused
 * is a deliberate test (`test`), as the logout tester's negative cases are; one that should end sessions is a logout.
 * The token names the uid its entry is written under: another user's for the other-sub case.
 */
export async function runGatedConformance(order: ConformanceOrder, parts: ConformanceGateParts): Promise<ConformanceRun> {
  const { sender, profile, audit, at, baseEntry } = parts;
  assertValidUid(order.uid);
  if (!isLocalBaseUrl(profile.baseUrl) && order.confirmUid !== order.uid) {
    throw new PrivacyDeskError({ code: 'CONFIRMATION_MISMATCH', text: msg('conformance.confirmLive', { host: hostOf(profile.baseUrl), uid: order.uid }) });
  }
  const reference = parts.checkReference(order.reference);
  const startedAt = at();
  const cases = await runConformanceCases(order.uid, sender, async (caseId, crafted, expectRefusal) => {
    const uid = crafted.sub ?? order.uid;
    const base = baseEntry(uid, reference, randomUUID());
    const entry: AuditRecord = expectRefusal ? { ...base, test: { case: caseId, run: 'conformance' } } : base;
    await recordAttempt(audit, entry);
    const reply = await sender.send(uid, crafted.token);
    const outcome: AuditRecord = { ...entry, at: at(), outcome: reply.outcome };
    if (reply.status !== undefined) outcome.status = reply.status;
    if (reply.requestId !== undefined) outcome.requestId = reply.requestId;
    if (reply.errorCode !== undefined) outcome.errorCode = reply.errorCode;
    await recordOutcome(audit, outcome);
    return reply;
  });
  return {
    uid: order.uid,
    profileId: profile.id,
    profileName: profile.name,
    baseUrl: profile.baseUrl,
    startedAt,
    finishedAt: at(),
    sessionsChecked: sender.sessions !== undefined && cases.some((one) => one.sends.some((send) => send.sessions === 'ended' || send.sessions === 'kept')),
    cases,
    counts: verdictCounts(cases),
    overall: overallVerdict(cases),
  };
}
