import { create } from 'zustand';
import type { LogoutAlgorithm, LogoutAnswer, LogoutVerdict, NegativeCase } from '../../../shared/logout';

export interface LogoutDraft {
  algorithm: LogoutAlgorithm;
  /** Empty: the profile's application name. */
  audience: string;
  /** Empty: now. Unix seconds as typed. */
  issuedAt: string;
  /** Empty: no exp claim. */
  expiresIn: string;
  jti: string;
  extraClaims: string;
  includeEvents: boolean;
}

export type LogoutCase = 'valid' | NegativeCase;

export interface LogoutTestRecord {
  id: number;
  at: string;
  profileId: string;
  uid: string;
  testCase: LogoutCase;
  status?: number;
  /** How the service treated the token (shared/logout.ts LogoutAnswer). */
  answer: LogoutAnswer;
  errorCode?: string;
  /** valid → accepted; any negative case → refused; inconclusive when the token was not judged (shared/logout.ts logoutVerdict). */
  verdict: LogoutVerdict;
}

export function newJti(): string {
  return globalThis.crypto?.randomUUID?.() ?? `jti-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

interface LogoutState {
  draft: LogoutDraft;
  history: LogoutTestRecord[];
  updateDraft: (patch: Partial<LogoutDraft>) => void;
  record: (entry: Omit<LogoutTestRecord, 'id'>) => void;
}

let nextId = 1;

/** The tester's form and this session's history survive switching tabs, not restarts. */
export const useLogoutStore = create<LogoutState>()((set) => ({
  draft: { algorithm: 'HS256', audience: '', issuedAt: '', expiresIn: '', jti: newJti(), extraClaims: '{}', includeEvents: false },
  history: [],
  updateDraft: (patch) => set((state) => ({ draft: { ...state.draft, ...patch } })),
  record: (entry) => set((state) => ({ history: [{ ...entry, id: nextId++ }, ...state.history].slice(0, 200) })),
}));
