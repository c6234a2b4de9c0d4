import { create } from 'zustand';
import type { ErasureAction } from '../../shared/users';
import { readStored, readStoredJson, writeStored } from './persisted';

export const VIEWS = ['users', 'reconcile', 'batch', 'requests', 'logout', 'audit', 'profiles'] as const;
export type View = (typeof VIEWS)[number];

export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeOverride = (typeof THEMES)[number];

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

const STORAGE = {
  theme: 'privacy-desk-theme',
  language: 'privacy-desk-language',
  columns: 'privacy-desk-user-columns',
  perPage: 'privacy-desk-per-page',
  logoutFirst: 'privacy-desk-logout-first',
} as const;

/** The OS language decides until the operator picks one: fr* → French, anything else English. */
export function detectLanguage(): Language {
  const stored = readStored<Language | 'auto'>(STORAGE.language, [...LANGUAGES, 'auto'], 'auto');
  if (stored !== 'auto') return stored;
  const osLanguage = typeof navigator !== 'undefined' ? navigator.language : 'en';
  return osLanguage.toLowerCase().startsWith('fr') ? 'fr' : 'en';
}

export interface ErasureRequest {
  action: ErasureAction;
  uid: string;
  /** Opened from a request's page: its id is the reference, and the act is linked to it. */
  requestId?: string;
}

interface UiState {
  view: View;
  /** Key of the users-table row whose detail panel is open. */
  selectedUserKey: string | null;
  /** Extra user fields shown as columns, by flattened field path (e.g. "level.name"). */
  visibleFields: string[];
  /** The users page, remembered for one profile; another profile starts at page 1. */
  usersPage: { profileId: string; page: number } | null;
  perPage: number;
  theme: ThemeOverride;
  language: Language;
  /** The erasure dialog's subject; null when closed. */
  erasure: ErasureRequest | null;
  /** uid handed to the logout tester by a row's or the uid box's "Test logout". */
  logoutUid: string;
  /** "End the user's sessions first", remembered per profile id; a profile not in it logs out first (the default). */
  logoutFirstByProfile: Record<string, boolean>;
  setView: (view: View) => void;
  selectUser: (key: string | null) => void;
  toggleField: (path: string) => void;
  setUsersPage: (profileId: string, page: number) => void;
  setPerPage: (perPage: number) => void;
  setTheme: (theme: ThemeOverride) => void;
  setLanguage: (language: Language) => void;
  openErasure: (request: ErasureRequest) => void;
  closeErasure: () => void;
  testLogout: (uid: string) => void;
  setLogoutUid: (uid: string) => void;
  setLogoutFirst: (profileId: string, logoutFirst: boolean) => void;
}

export const useUiStore = create<UiState>()((set, get) => ({
  view: 'users',
  selectedUserKey: null,
  visibleFields: readStoredJson<string[]>(STORAGE.columns, []),
  usersPage: null,
  perPage: Number(readStored(STORAGE.perPage, ['10', '25', '50', '100'], '25')),
  theme: readStored(STORAGE.theme, THEMES, 'system'),
  language: detectLanguage(),
  erasure: null,
  logoutUid: '',
  logoutFirstByProfile: readLogoutFirst(),
  setView: (view) => set({ view }),
  selectUser: (selectedUserKey) => set({ selectedUserKey }),
  toggleField: (path) => {
    const current = get().visibleFields;
    const visibleFields = current.includes(path) ? current.filter((p) => p !== path) : [...current, path];
    writeStored(STORAGE.columns, JSON.stringify(visibleFields));
    set({ visibleFields });
  },
  setUsersPage: (profileId, page) => set({ usersPage: { profileId, page }, selectedUserKey: null }),
  setPerPage: (perPage) => {
    writeStored(STORAGE.perPage, String(perPage));
    set({ perPage, usersPage: null, selectedUserKey: null });
  },
  setTheme: (theme) => {
    writeStored(STORAGE.theme, theme);
    set({ theme });
  },
  setLanguage: (language) => {
    writeStored(STORAGE.language, language);
    set({ language });
  },
  openErasure: (erasure) => set({ erasure }),
  closeErasure: () => set({ erasure: null }),
  testLogout: (uid) => set({ logoutUid: uid, view: 'logout' }),
  setLogoutUid: (logoutUid) => set({ logoutUid }),
  setLogoutFirst: (profileId, logoutFirst) => {
    const logoutFirstByProfile = { ...get().logoutFirstByProfile, [profileId]: logoutFirst };
    writeStored(STORAGE.logoutFirst, JSON.stringify(logoutFirstByProfile));
    set({ logoutFirstByProfile });
  },
}));

/** Whether the erasure dialog ends the user's sessions first for this profile: on unless the operator turned it off. */
export function logoutFirstFor(state: Pick<UiState, 'logoutFirstByProfile'>, profileId: string): boolean {
  return state.logoutFirstByProfile[profileId] ?? true;
}

/** Only booleans survive a stored value edited by hand: anything else means the default. */
function readLogoutFirst(): Record<string, boolean> {
  const stored = readStoredJson<unknown>(STORAGE.logoutFirst, {});
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(Object.entries(stored).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'));
}
