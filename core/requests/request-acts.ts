import type { AuditEntry } from '../../shared/audit';
import type { RequestActLine, RequestActsLine, RequestBatchLine } from '../../shared/request-acts';
import type { RequestView } from '../../shared/requests';
import { ERASURE_ACTIONS, type ErasureAction } from '../../shared/users';

const isErasure = (action: string): action is ErasureAction => (ERASURE_ACTIONS as readonly string[]).includes(action);

/**
 * A request's linked acts and batch jobs as the audit trail tells them (entries in the trail's order, oldest first):
 * an act's erasure outcome and its verification, a job's summary. An act the trail does not hold is left out.
 */
export function requestActs(entries: readonly AuditEntry[], links: RequestView['links']): RequestActsLine[] {
  const actIds = new Set(links.actIds);
  const acts = new Map<string, RequestActLine>();
  for (const entry of entries) {
    if (!entry.actId || !actIds.has(entry.actId) || !isErasure(entry.action)) continue;
    const line = acts.get(entry.actId) ?? { kind: 'act', actId: entry.actId, uid: entry.uid, action: entry.action, outcome: 'attempted', at: entry.at };
    if (entry.outcome === 'verification') {
      if (entry.verification) line.verification = entry.verification;
    } else if (entry.outcome !== 'attempted' && entry.outcome !== 'summary' && entry.outcome !== 'acknowledged') {
      // The verification repeats the request ('attempted' again): only an outcome replaces the one kept.
      line.outcome = entry.outcome;
      line.at = entry.at;
    }
    acts.set(entry.actId, line);
  }
  const batches = links.batchJobIds.map((batchId): RequestBatchLine => {
    const summary = [...entries].reverse().find((entry) => entry.outcome === 'summary' && entry.jobId === batchId && entry.batch);
    return summary?.batch ? { kind: 'batch', batchId, summary: summary.batch, at: summary.at } : { kind: 'batch', batchId };
  });
  return [...acts.values(), ...batches];
}

/**
 * Erasures under the request's id as their reference that are not linked to it: acts done with `--reference REQ-…`
 * but no `--request`, or whose link could not be written after the act. The request's page offers to link them.
 */
export function unlinkedActIds(entries: readonly AuditEntry[], requestId: string, links: RequestView['links']): string[] {
  const linked = new Set(links.actIds);
  const found = new Set<string>();
  for (const entry of entries) if (entry.actId && entry.reference === requestId && !entry.jobId && isErasure(entry.action) && !linked.has(entry.actId)) found.add(entry.actId);
  return [...found];
}

/** The act id of the latest act on `uid` under `reference` among entries newest first (what `users … --request` links). */
export function latestActId(entriesNewestFirst: readonly AuditEntry[], uid: string, reference: string): string | undefined {
  return entriesNewestFirst.find((entry) => entry.uid === uid && entry.reference === reference && entry.actId)?.actId;
}
