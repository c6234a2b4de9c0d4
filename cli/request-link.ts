import type { Desk } from '../core/desk';
import { isPrivacyDeskError } from '../shared/errors';
import type { CliOutput } from './output';
import { latestActId } from '../core/requests/request-acts';

/**
 * `--request REQ-…` on the acts (users anonymize|delete, batch anonymize|delete): the request is checked before
 * anything is sent, its id is the reference when none is given, and the act ids (or the batch job) are linked to it.
 */

/** The request's id as the register spells it; refuses (exit 2, nothing sent) an id the register does not hold. */
export async function requestToLink(desk: Desk, id: string | undefined): Promise<string | undefined> {
  return id === undefined ? undefined : (await desk.requests.get(id)).id;
}

/** Links the latest act of `uid` under `reference` (an act is linked whatever its outcome). */
export async function linkSingleAct(desk: Desk, out: CliOutput, requestId: string, uid: string, reference: string): Promise<void> {
  const actId = latestActId(await desk.auditEntries(50), uid, reference);
  await link(desk, out, requestId, { actIds: actId ? [actId] : [] });
}

export async function link(desk: Desk, out: CliOutput, requestId: string, links: { actIds?: string[]; batchJobIds?: string[] }): Promise<void> {
  try {
    await desk.requests.apply(requestId, { kind: 'link', actIds: links.actIds ?? [], batchJobIds: links.batchJobIds ?? [] });
    out.note(`Linked to request ${requestId}.`);
  } catch (error) {
    // The act happened and is audited under the request's id as its reference: only the register's link is missing.
    const why = isPrivacyDeskError(error) ? error.message : 'unknown error';
    out.note(`Warning: the act was not linked to request ${requestId} (${why}). It is in the audit trail under the reference ${requestId}; link it with the console or run the command again later.`);
  }
}
