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

/** The act id of the latest act on `uid` under `reference` among entries newest first (what `users … --request` links). */
export function latestActId(entriesNewestFirst: readonly AuditEntry[], uid: string, reference: string): string | undefined {
  return entriesNewestFirst.find((entry) => entry.uid === uid && entry.reference === reference && entry.actId)?.actId;
}
