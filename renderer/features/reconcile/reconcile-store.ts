import { create } from 'zustand';
import type { ReconcileSetName, ReconcileSummary } from '../../../shared/reconcile';
import type { InputSeparator, OpenedFile } from '../batch/batch-draft-store';

interface ReconcileState {
  pasted: string;
  file: OpenedFile | null;
  /** As in a batch: '' lets the core guess; 'none' reads each line whole as one uid. */
  separator: InputSeparator;
  /** As in a batch: a header name, or a numbered column (use-batch-preview.ts numberedColumn); '' lets the core pick. */
  uidColumn: string;
  hasHeader: boolean;
  /** The last finished reconciliation, with the profile it walked; its sets stay in the main process. */
  result: { profileId: string; summary: ReconcileSummary } | null;
  shownSet: ReconcileSetName;
  filter: string;
  /** First row of the table shown. */
  offset: number;
  set(patch: Partial<Omit<ReconcileState, 'set'>>): void;
}

/** What the operator is reconciling and the last result: kept while they look at another view; nothing is persisted. */
export const useReconcile = create<ReconcileState>()((set) => ({
  pasted: '',
  file: null,
  separator: '',
  uidColumn: '',
  hasHeader: false,
  result: null,
  shownSet: 'orphans',
  filter: '',
  offset: 0,
  set: (patch) => set(patch),
}));
