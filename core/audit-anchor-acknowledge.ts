import { randomUUID } from 'node:crypto';
import { acknowledgementReasonProblem, FINDING_ID, type AuditVia, type ChainVerdict } from '../shared/audit';
import { invalidInput } from '../shared/errors';
import { msg, wordInEnglish } from '../shared/messages';
import type { AuditStore } from './audit-store';
import { isoWithOffset } from './local-time';

/**
 * Acknowledging a finding of the anchor: an operator who has looked into it (a crash that left nothing to prove it,
 * entries written where the keychain could not be reached…) says why it is acceptable, in words, and that is written
 * to the trail as a chained entry like any act — who, when, which finding, why — so it is as tamper-evident as the
 * rest. The finding stays on record; verify passes once no finding is left open, and says who acknowledged what.
 * Only a finding verify lists as open can be acknowledged, never a break of the chain itself.
 */
export interface AcknowledgeRequest {
  finding: string;
  reason: string;
}

export interface Acknowledger {
  operator: string;
  via: AuditVia;
  appVersion: string;
  now?: () => number;
}

/** Writes the acknowledgement and returns verify's verdict after it. Refuses, writing nothing, a reason too short or an id no open finding has. */
export async function acknowledgeFinding(log: AuditStore, request: AcknowledgeRequest, who: Acknowledger): Promise<ChainVerdict> {
  const finding = request.finding.trim().toLowerCase();
  const reason = request.reason.trim();
  const reasonProblem = acknowledgementReasonProblem(reason);
  if (reasonProblem) throw invalidInput(reasonProblem);
  if (!FINDING_ID.test(finding)) throw invalidInput(msg('anchor.ack.unknown', { finding: request.finding.trim().slice(0, 40) }));
  const verdict = await log.verify();
  const anchor = verdict.anchor;
  if (anchor?.state === 'unavailable') throw invalidInput(msg('anchor.ack.noAnchor', { problem: anchor.problem ?? '' }));
  const open = anchor?.open?.find((o) => o.finding === finding);
  if (!open) {
    // A break of the chain hides the anchor's findings: say that rather than "no such finding".
    if (!verdict.ok && !anchor?.open) throw invalidInput(msg('anchor.ack.chainBroken', { problem: verdict.text ?? msg('code.INTERNAL') }));
    throw invalidInput(msg('anchor.ack.unknown', { finding }));
  }
  await log.append({
    at: isoWithOffset(new Date((who.now ?? Date.now)())),
    actId: randomUUID(),
    action: 'acknowledge',
    outcome: 'acknowledged',
    uid: '',
    profileId: '',
    profileName: '',
    baseUrl: '',
    operator: who.operator,
    appVersion: who.appVersion,
    via: who.via,
    acknowledgement: { finding, kind: open.kind, problem: wordInEnglish(open.text), reason },
  });
  // The anchor learns at once that it landed: taking it out later is then a removal, never a write under way.
  await log.settle();
  return log.verify();
}
