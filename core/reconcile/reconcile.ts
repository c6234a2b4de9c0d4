import { randomBytes } from 'node:crypto';
import { invalidInput } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { RECONCILE_INVALID_SHOWN, reconcileReference, type ReconcileSummary } from '../../shared/reconcile';
import type { ListUsersInput, UserPage } from '../../shared/users';
import type { BatchInputOptions, BatchInputSource } from '../batch/parse-input';
import { readApplicationUids } from './application-uids';
import { compareUidSets, type ReconcileSets } from './reconcile-sets';
import { walkServiceUids, type ServiceWalkOptions } from './service-uids';

export interface Reconciliation {
  summary: ReconcileSummary;
  sets: ReconcileSets;
}

export interface ReconcileRequest {
  source: BatchInputSource;
  sourceName: string;
  input: Omit<BatchInputOptions, 'referenceColumn'>;
  listPage: (input: ListUsersInput) => Promise<UserPage>;
  walk?: ServiceWalkOptions;
  now?: () => number;
  newId?: () => string;
}

/**
 * Reads the application's list (nothing is sent: a list with no valid uid is refused before the walk), walks every
 * page of the service's users, and compares (core/reconcile/reconcile-sets.ts). Read-only from end to end.
 */
export async function reconcile(request: ReconcileRequest): Promise<Reconciliation> {
  const now = request.now ?? Date.now;
  const reconcileId = (request.newId ?? (() => randomBytes(16).toString('hex')))();
  const list = await readApplicationUids(request.source, request.input);
  if (list.summary.items === 0) {
    throw invalidInput(msg('reconcile.noValidUid', { source: request.sourceName }));
  }
  const startedAt = new Date(now()).toISOString();
  const service = await walkServiceUids(request.listPage, request.walk);
  const sets = compareUidSets(list.uids, service.uids);
  const { summary: input } = list;
  return {
    sets,
    summary: {
      reconcileId,
      reference: reconcileReference(startedAt, reconcileId),
      startedAt,
      finishedAt: new Date(now()).toISOString(),
      pages: service.pages,
      counts: {
        orphans: sets.orphans.length,
        missing: sets.missing.length,
        inBoth: sets.inBoth.length,
        nearMatches: sets.nearMatches.length,
        serviceUsers: service.uids.length + service.withoutUid,
        withoutUid: service.withoutUid,
        applicationUids: input.items - sets.sameAfterNfc,
      },
      input: {
        sourceName: request.sourceName,
        kind: input.kind,
        ...(input.separator ? { separator: input.separator } : {}),
        ...(input.columns ? { columns: input.columns } : {}),
        ...(input.uidColumn ? { uidColumn: input.uidColumn } : {}),
        duplicates: input.duplicates,
        sameAfterNfc: sets.sameAfterNfc,
        invalidCount: input.invalidCount,
        invalid: input.invalid.slice(0, RECONCILE_INVALID_SHOWN).map(({ line, reason, excerpt }) => ({ line, reason, excerpt })),
        edgeSpaces: input.edgeSpaces.count,
      },
    },
  };
}
