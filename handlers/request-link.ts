import type { Desk } from '../core/desk';
import type { RequestStore } from '../core/requests/request-store';
import { latestActId } from '../core/requests/request-acts';

/**
 * Links the latest act on `uid` under `reference` to a request, as the CLI's `--request` does. A failed link never
 * turns the act's own answer into an error: the act is audited under the request's id as its reference either way,
 * and the request's page offers to link what its reference holds (requests.acts' unlinkedActIds).
 */
export async function linkLatestAct(desk: Desk, requestId: string, uid: string, reference: string): Promise<void> {
  try {
    const actId = latestActId(await desk.auditEntries(50), uid, reference);
    if (actId) await desk.requests.apply(requestId, { kind: 'link', actIds: [actId] });
  } catch {
    // The erasure's outcome is what the window must say; the act is still found by its reference.
  }
}

/** Links a batch job started for a request, once the job exists (before its items are sent), as the CLI's batch --request does. */
export async function linkBatchJob(requests: Pick<RequestStore, 'apply'>, requestId: string, batchId: string): Promise<void> {
  try {
    await requests.apply(requestId, { kind: 'link', batchJobIds: [batchId] });
  } catch {
    // The job runs and is audited under the request's id as its reference; its start must not read as a failure.
  }
}
