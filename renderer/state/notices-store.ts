import type { i18n as I18n, TFunction } from 'i18next';
import { create } from 'zustand';

/**
 * What a notice says, worded when it is drawn: a notice kept while the operator switches language is read in the
 * window's language, never in the one it was raised in.
 */
export type NoticeWords = (t: TFunction, i18n: I18n) => string;

export interface Notice {
  id: number;
  tone: 'success' | 'info' | 'error';
  text: NoticeWords;
  /** Routine confirmations (profile saved) fade; outcomes of irreversible acts stay until dismissed. */
  fades?: boolean;
  /** The uid the text names, as the text writes it: drawn whole (never broken across lines) where it occurs. */
  uid?: string;
  /** After an erasure with a reference: the notice offers the PDF receipt of that reference's acts. */
  receiptFor?: { reference: string };
}

export const FADE_AFTER_MS = 8000;

interface NoticesState {
  notices: Notice[];
  push: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
  /** Clears every notice that stays (the ones that fade go by themselves). */
  clearKept: () => void;
}

let nextId = 1;

/**
 * Outcome notices stay until dismissed: after an irreversible act the
 * operator may need the request id for the ticket, so nothing fades away.
 */
export const useNotices = create<NoticesState>()((set) => ({
  notices: [],
  push: (notice) => {
    const id = nextId++;
    set((state) => ({ notices: [...state.notices, { ...notice, id }].slice(-5) }));
    if (notice.fades) setTimeout(() => useNotices.getState().dismiss(id), FADE_AFTER_MS);
  },
  dismiss: (id) => set((state) => ({ notices: state.notices.filter((n) => n.id !== id) })),
  clearKept: () => set((state) => ({ notices: state.notices.filter((n) => n.fades) })),
}));
