import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import type { NearMatch, RecordedErasure, UserLookupAnswer } from '../../../shared/user-search';
import type { UserRecord } from '../../../shared/users';
import { useBridge } from '../../bridge/bridge-context';
import { useReadEveryPage, type ReadingState } from '../users/use-read-every-page';
import { findKnownUser } from './known-user';

/**
 * Who a uid belongs to, as far as can be said truthfully:
 * - found: on a list read at `readAt` (this window's clock), with the user's identity;
 * - absent: not on the list read just now, for this question: the service will answer "not found"; `nearMatches`
 *   are the users on it this uid was likely meant for (trimmed, invisible characters, case);
 * - reading: that read is under way (progress, Cancel);
 * - not-read: the read was cancelled, so nothing is known; failed: the list could not be read (the error says why).
 * `erasure`: the audit trail of this computer recorded an erasure of this uid since the console started.
 */
export type UidIdentity =
  | { phase: 'checking' }
  | { phase: 'reading'; reading: Extract<ReadingState, { phase: 'reading' }> | undefined }
  | { phase: 'found'; user: UserRecord; readAt: number }
  | { phase: 'absent'; indexedUsers: number; erasure?: RecordedErasure; nearMatches?: NearMatch[] }
  | { phase: 'not-read'; erasure?: RecordedErasure }
  | { phase: 'failed'; error: unknown; erasure?: RecordedErasure };

const withErasure = (erasure: RecordedErasure | undefined) => (erasure ? { erasure } : {});

/**
 * Asks the core about the uid (users.lookup: the kept list, after the erasures any process recorded).
 * A loaded page of the table answers when the core keeps no list and records no erasure. Absence is never
 * taken from a list read earlier: the list is read again, then and there, before the dialog says so.
 */
export function useUidIdentity(profileId: string, uid: string) {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const reader = useReadEveryPage(profileId);
  const { read } = reader;
  const [identity, setIdentity] = useState<UidIdentity>({ phase: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    const settle = (next: UidIdentity) => {
      if (current) setIdentity(next);
    };
    const lookUp = async (): Promise<{ answer: UserLookupAnswer; receivedAt: number }> => ({ answer: await bridge['users.lookup']({ profileId, uid }), receivedAt: Date.now() });
    void (async () => {
      setIdentity({ phase: 'checking' });
      let first;
      try {
        first = await lookUp();
      } catch (error) {
        settle({ phase: 'failed', error });
        return;
      }
      if (!current) return;
      if (first.answer.state === 'found') {
        settle({ phase: 'found', user: first.answer.user, readAt: first.receivedAt - first.answer.ageMs });
        return;
      }
      const erasure = first.answer.erasure;
      if (first.answer.state === 'missing' && !erasure) {
        const known = findKnownUser(queryClient, profileId, uid);
        if (known) {
          settle({ phase: 'found', ...known });
          return;
        }
      }
      // Not on the list kept (or none is kept, or this uid was erased since it was read): read it now.
      settle({ phase: 'reading', reading: undefined });
      const ending = await read();
      if (!current || ending.status === 'detached') return;
      if (ending.status === 'cancelled') return settle({ phase: 'not-read', ...withErasure(erasure) });
      if (ending.status === 'failed') return settle({ phase: 'failed', error: ending.error, ...withErasure(erasure) });
      let second;
      try {
        second = await lookUp();
      } catch (error) {
        settle({ phase: 'failed', error, ...withErasure(erasure) });
        return;
      }
      const answer = second.answer;
      if (answer.state === 'found') settle({ phase: 'found', user: answer.user, readAt: second.receivedAt - answer.ageMs });
      else if (answer.state === 'absent') settle({ phase: 'absent', indexedUsers: answer.indexedUsers, ...withErasure(answer.erasure ?? erasure), ...(answer.nearMatches ? { nearMatches: answer.nearMatches } : {}) });
      // The list read for this question was dropped at once (the profile changed): nothing is known.
      else settle({ phase: 'not-read', ...withErasure(answer.erasure ?? erasure) });
    })();
    return () => {
      current = false;
    };
  }, [bridge, queryClient, profileId, uid, read, attempt]);

  const retry = useCallback(() => {
    reader.reset();
    setAttempt((n) => n + 1);
  }, [reader]);

  const shown: UidIdentity = identity.phase === 'reading' ? { phase: 'reading', reading: reader.state.phase === 'reading' ? reader.state : undefined } : identity;
  return { identity: shown, cancel: reader.cancel, retry };
}
