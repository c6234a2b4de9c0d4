import { create } from 'zustand';
import type { ErasureAction } from '../../../shared/users';

/** A file opened in the window: its text goes to the preview in place of the pasted list. */
export interface OpenedFile {
  name: string;
  text: string;
  size: number;
}

interface BatchDraftState {
  pasted: string;
  file: OpenedFile | null;
  /** A header name; '' lets the core pick (the column named like a uid, else the first). */
  uidColumn: string;
  /** A header name; '' for none. */
  referenceColumn: string;
  /** The operator says the first row names the columns (the core guesses so only when one is named like a uid). */
  hasHeader: boolean;
  reference: string;
  action: ErasureAction;
  logoutFirst: boolean;
  typed: string;
  /** The profile the phrase was typed for: another profile needs it typed again. */
  typedFor: string;
  /** The draft for which the operator chose to send the trimmed form of the uids the check found trimmable ('' for none). */
  useTrimmedFor: string;
  set(patch: Partial<Omit<BatchDraftState, 'set' | 'clear'>>): void;
  /** A new batch: everything back to its default. */
  clear(): void;
}

const EMPTY = { pasted: '', file: null, uidColumn: '', referenceColumn: '', hasHeader: false, reference: '', action: 'anonymize' as ErasureAction, logoutFirst: true, typed: '', typedFor: '', useTrimmedFor: '' };

/** What the operator is composing: kept while they look at another view. Nothing here is persisted. */
export const useBatchDraft = create<BatchDraftState>()((set) => ({
  ...EMPTY,
  set: (patch) => set(patch),
  clear: () => set(EMPTY),
}));
