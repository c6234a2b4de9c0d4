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
  /** What separates the columns, as the operator chose it; '' lets the core guess; 'none' reads each line whole as one uid. */
  separator: InputSeparator;
  /** A header name; '' lets the core pick (the column named like a uid, else the first). */
  uidColumn: string;
  /** A header name; '' for none. */
  referenceColumn: string;
  /** The operator says the first row names the columns (the core guesses so only when one is named like a uid). */
  hasHeader: boolean;
  reference: string;
  /** The request of the register this batch is for ('' for none): the job is linked to it when it starts. */
  requestId: string;
  action: ErasureAction;
  logoutFirst: boolean;
  typed: string;
  /**
   * What the phrase was typed for (confirmationTarget): the profile, the preview's draft, the operation and the
   * choices that change what is sent. Anything else — another profile, a preview replaced, another choice —
   * needs it typed again.
   */
  typedFor: string;
  /** The draft for which the operator chose to send the trimmed form of the uids the check found trimmable ('' for none). */
  useTrimmedFor: string;
  set(patch: Partial<Omit<BatchDraftState, 'set' | 'clear' | 'forgetConfirmation'>>): void;
  /** A new batch: everything back to its default. */
  clear(): void;
  /** The phrase has been used (Start clicked) or what it confirmed is gone (a job started, resumed, followed or ended): typed again next time. */
  forgetConfirmation(): void;
}

/** Everything Start sends that the typed phrase vouches for; the reference is a note for the audit trail and is not part of it. */
export interface ConfirmationTarget {
  profileId: string;
  draftId: string;
  action: ErasureAction;
  logoutFirst: boolean;
  useTrimmed: boolean;
}

export function confirmationTarget(target: ConfirmationTarget): string {
  return JSON.stringify([target.profileId, target.draftId, target.action, target.logoutFirst, target.useTrimmed]);
}

export type InputSeparator = '' | 'comma' | 'semicolon' | 'tab' | 'none';

const EMPTY = { pasted: '', file: null, separator: '' as InputSeparator, uidColumn: '', referenceColumn: '', hasHeader: false, reference: '', requestId: '', action: 'anonymize' as ErasureAction, logoutFirst: true, typed: '', typedFor: '', useTrimmedFor: '' };

/** What the operator is composing: kept while they look at another view. Nothing here is persisted. */
export const useBatchDraft = create<BatchDraftState>()((set) => ({
  ...EMPTY,
  set: (patch) => set(patch),
  clear: () => set(EMPTY),
  forgetConfirmation: () => set({ typed: '', typedFor: '' }),
}));
