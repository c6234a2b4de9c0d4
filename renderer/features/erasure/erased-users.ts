import { create } from 'zustand';
import type { ErasureAction } from '../../../shared/users';

/**
 * What this window just learned about a user from an act: erased (done), unknown to the service
 * (not-found), or perhaps erased (unknown outcome). Screens that still show that user (the detail
 * panel, a loaded page, search results) stop offering to act on them and say what happened.
 */
export interface ErasedMark {
  profileId: string;
  uid: string;
  action: ErasureAction;
  result: 'done' | 'not-found' | 'unknown';
  /** This window's clock: a page read after it already knows. */
  at: number;
}

interface ErasedUsersState {
  marks: ErasedMark[];
  mark: (mark: Omit<ErasedMark, 'at'>) => void;
}

/** A few dozen at most are ever looked at: the screens are refreshed right after the act. */
const KEPT = 100;

export const useErasedUsers = create<ErasedUsersState>((set) => ({
  marks: [],
  mark: (mark) => set((state) => ({ marks: [...state.marks.filter((m) => m.profileId !== mark.profileId || m.uid !== mark.uid), { ...mark, at: Date.now() }].slice(-KEPT) })),
}));

/** The mark for this user of this profile, if an act on them was just answered. */
export function erasedMarkOf(marks: readonly ErasedMark[], profileId: string, uid: string | null | undefined): ErasedMark | undefined {
  if (uid === null || uid === undefined) return undefined;
  return marks.find((m) => m.profileId === profileId && m.uid === uid);
}
