import { create } from 'zustand';

export interface Notice {
  id: number;
  tone: 'success' | 'info' | 'error';
  text: string;
}

interface NoticesState {
  notices: Notice[];
  push: (notice: Omit<Notice, 'id'>) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

/**
 * Outcome notices stay until dismissed: after an irreversible act the
 * operator may need the request id for the ticket, so nothing fades away.
 */
export const useNotices = create<NoticesState>()((set) => ({
  notices: [],
  push: (notice) => set((state) => ({ notices: [...state.notices, { ...notice, id: nextId++ }].slice(-5) })),
  dismiss: (id) => set((state) => ({ notices: state.notices.filter((n) => n.id !== id) })),
}));
