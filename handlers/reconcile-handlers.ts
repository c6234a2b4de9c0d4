import { reconcile, type Reconciliation } from '../core/reconcile/reconcile';
import { exportReconciliation, orphansToSend, reconcileRows } from '../core/reconcile/reconcile-export';
import { invalidInput, PrivacyDeskError } from '../shared/errors';
import { msg } from '../shared/messages';
import { uidListText } from '../shared/reconcile';
import type { AreaHandlers, HandlerContext } from './types';

/** Reconciliations kept in memory (never on disk): the newest few, for the window's table, export and batch hand-off. */
const KEPT = 3;

type ReconcileMethods = 'reconcile.start' | 'reconcile.rows' | 'reconcile.export' | 'reconcile.orphanList';

/**
 * The reconciliation as a job like users.index (progress by page, jobs.cancel stops it between pages); its result is
 * the summary, and the sets stay here, read a page at a time. Read-only: the orphans reach a batch only through
 * batch.preview and batch.start, with their typed count.
 */
export function reconcileHandlers({ desk, jobs }: HandlerContext): AreaHandlers<ReconcileMethods> {
  const kept = new Map<string, Reconciliation>();
  const find = (reconcileId: string): Reconciliation => {
    const found = kept.get(reconcileId);
    if (!found) throw new PrivacyDeskError({ code: 'NOT_FOUND', text: msg('reconcile.gone') });
    return found;
  };
  return {
    'reconcile.start': async ({ profileId, text, kind, separator, uidColumn, hasHeader, sourceName }) => {
      // The profile is known before a job starts: an unknown one is refused at once.
      await desk.getProfile(profileId);
      return {
        jobId: jobs.start('reconcile', async (job) => {
          const result = await reconcile({
            source: text,
            sourceName,
            input: { kind, ...(separator ? { separator } : {}), ...(uidColumn !== undefined ? { uidColumn } : {}), ...(hasHeader !== undefined ? { hasHeader } : {}) },
            listPage: (input) => desk.listUsers(profileId, input),
            walk: {
              signal: job.signal,
              onProgress: ({ page, collected, totalPages }) => job.progress({ page, collected, ...(totalPages !== undefined ? { totalPages } : {}) }),
            },
          });
          kept.set(result.summary.reconcileId, result);
          for (const id of kept.keys()) if (kept.size > KEPT) kept.delete(id);
          return result.summary;
        }),
      };
    },
    'reconcile.rows': async ({ reconcileId, set, filter, offset, limit }) => reconcileRows(find(reconcileId), set, filter, offset, limit),
    'reconcile.export': async ({ reconcileId, format }) => exportReconciliation(find(reconcileId), format),
    'reconcile.orphanList': async ({ reconcileId, filter, uids }) => {
      const found = find(reconcileId);
      const { uids: chosen, notOrphan } = orphansToSend(found, filter, uids);
      if (notOrphan !== undefined) throw invalidInput(msg('reconcile.notAnOrphan', { uid: JSON.stringify(notOrphan.slice(0, 80)) }));
      if (chosen.length === 0) throw invalidInput(msg('reconcile.noOrphans'));
      const reference = found.summary.reference;
      return { text: uidListText(chosen), count: chosen.length, reference, sourceName: `${reference} orphans` };
    },
  };
}
