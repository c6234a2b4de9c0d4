import { create } from 'zustand';

/** Where the Requests tab is: its list, the new-request form, or one request's page. */
export type RequestsPlace = { kind: 'list' } | { kind: 'new' } | { kind: 'request'; id: string };

interface RequestsNavState {
  place: RequestsPlace;
  go: (place: RequestsPlace) => void;
}

export const useRequestsNav = create<RequestsNavState>()((set) => ({
  place: { kind: 'list' },
  go: (place) => set({ place }),
}));
