import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { AuditVia } from '../../../shared/audit';
import type { ErasedSince, ErasedSinceAnswer } from '../../../shared/user-search';
import type { ErasureAction, UserPage } from '../../../shared/users';
import { useBridge } from '../../bridge/bridge-context';
import { queryKeys } from '../../state/query-keys';
import { erasedMarkOf, type ErasedMark } from '../erasure/erased-users';

/** How often a shown page asks whether any of its users was erased since it was read (a cheap read of the audit trail's end). */
export const ERASED_SINCE_POLL_MS = 5_000;

/**
 * A row of a page read earlier whose user an act concerned since: erased (done), perhaps erased (unknown), or
 * unknown to the service (not-found); by this console (this window's own act), or as the audit trail of this
 * computer records it (the console, the command line, a batch) at `at`.
 */
export interface RowErasure {
  uid: string;
  action: ErasureAction;
  result: 'done' | 'unknown' | 'not-found';
  via: 'this-console' | AuditVia;
  at?: string;
}

/** The erasures of a page's users since it was read, asked again every few seconds while the page is shown. */
export function useErasedSince(profileId: string, page: UserPage | undefined) {
  const uids = useMemo(() => page?.users.flatMap((user) => (user.uid === null ? [] : [user.uid])) ?? [], [page]);
  return useErasuresOf(profileId, uids, page?.readAt);
}

/** The erasures of these uids recorded since `since` (ISO, the core's clock), asked again every few seconds while shown. */
export function useErasuresOf(profileId: string, uids: readonly string[], since: string | undefined) {
  const bridge = useBridge();
  return useQuery({
    queryKey: [...queryKeys.usersOfProfile(profileId), 'erasedSince', since ?? '', uids] as const,
    queryFn: (): Promise<ErasedSinceAnswer> => bridge['users.erasedSince']({ profileId, since: since!, uids: [...uids] }),
    enabled: since !== undefined && uids.length > 0,
    refetchInterval: ERASED_SINCE_POLL_MS,
    retry: false,
  });
}

/**
 * Per uid, what changed since the page was read: this window's own acts answered after the page was read
 * (`readAtMs`, this window's clock) first, then what the audit trail records.
 */
/** One erasure the audit trail records, as a row (or a panel) says it. */
export function rowErasureOf(erasure: ErasedSince): RowErasure {
  const result = erasure.outcome === 'unknown' ? 'unknown' : erasure.outcome === 'refused' ? 'not-found' : 'done';
  return { uid: erasure.uid, action: erasure.action, result, via: erasure.via, at: erasure.at };
}

export function rowErasures(profileId: string, page: UserPage | undefined, readAtMs: number, marks: readonly ErasedMark[], answer: ErasedSinceAnswer | undefined): Map<string, RowErasure> {
  const rows = new Map<string, RowErasure>();
  for (const erasure of answer?.erasures ?? []) rows.set(erasure.uid, rowErasureOf(erasure));
  for (const user of page?.users ?? []) {
    const mark = erasedMarkOf(marks, profileId, user.uid);
    if (mark && mark.at > readAtMs) rows.set(mark.uid, { uid: mark.uid, action: mark.action, result: mark.result, via: 'this-console' });
  }
  return rows;
}
