import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { BatchPreview } from '../../../shared/batch';
import type { InputSeparator } from './batch-draft-store';
import { useBridge } from '../../bridge/bridge-context';

/** Typing waits this long for a pause; a paste, an opened file or a column pick previews at once. */
export const PREVIEW_DEBOUNCE_MS = 350;

export interface PreviewRequest {
  text: string;
  sourceName: string;
  /** The operator's choice ('' guesses; 'none' reads a list, each line whole). */
  separator?: InputSeparator;
  uidColumn: string;
  referenceColumn: string;
  hasHeader: boolean;
  /** Set just before a change that should skip the debounce (a paste, a file, a column pick); cleared once the preview is asked. */
  immediate: RefObject<boolean>;
}

export interface PreviewState {
  preview: BatchPreview | null;
  /** The shown preview is not the current text's yet (waiting or asking). */
  pending: boolean;
  error: unknown;
}

/**
 * Reads the list as the operator pastes, types or opens a file (batch.preview: validated and spooled,
 * nothing sent). Only the newest answer counts: an older request that answers late is dropped. A preview
 * no longer shown (replaced, dropped, or left with the screen) has its draft discarded at once.
 */
export function useBatchPreview({ text, sourceName, separator = '', uidColumn, referenceColumn, hasHeader, immediate }: PreviewRequest): PreviewState {
  const bridge = useBridge();
  const [state, setState] = useState<PreviewState>({ preview: null, pending: false, error: null });
  const sequence = useRef(0);
  /** The draft of the preview on screen. */
  const shown = useRef<string | null>(null);
  const discard = useCallback(
    (draftId: string | null) => {
      if (draftId) bridge['batch.discard']({ draftId }).catch(() => undefined);
    },
    [bridge],
  );
  const show = useCallback(
    (draftId: string | null) => {
      if (shown.current !== draftId) discard(shown.current);
      shown.current = draftId;
    },
    [discard],
  );
  useEffect(() => () => show(null), [show]);

  useEffect(() => {
    const mine = ++sequence.current;
    if (text.trim() === '') {
      show(null);
      setState({ preview: null, pending: false, error: null });
      return;
    }
    setState((previous) => ({ ...previous, pending: true }));
    const ask = async () => {
      try {
        const preview = await bridge['batch.preview']({
          text,
          ...(separator === 'none' ? { kind: 'list' as const } : { kind: 'auto' as const, ...(separator ? { separator } : {}) }),
          sourceName,
          // A picked column is a header name (the first row is the header) or, without a header, a column's number.
          ...(uidColumn ? { uidColumn: pickedColumn(uidColumn) } : {}),
          ...(referenceColumn ? { referenceColumn: pickedColumn(referenceColumn) } : {}),
          ...(hasHeader || isNamedColumn(uidColumn) || isNamedColumn(referenceColumn) ? { hasHeader: true } : {}),
        });
        if (mine !== sequence.current) return discard(preview.draftId);
        show(preview.draftId);
        setState({ preview, pending: false, error: null });
      } catch (error) {
        if (mine !== sequence.current) return;
        show(null);
        setState({ preview: null, pending: false, error });
      }
    };
    const timer = setTimeout(
      () => {
        immediate.current = false;
        void ask();
      },
      immediate.current ? 0 : PREVIEW_DEBOUNCE_MS,
    );
    return () => clearTimeout(timer);
  }, [bridge, text, sourceName, separator, uidColumn, referenceColumn, hasHeader, immediate, show, discard]);

  return state;
}

/**
 * A column picked without a header row is drafted as its 0-based index behind a control character, which a header
 * name picked from the list never starts with (the reference rule and the preview draw such characters as marks).
 */
const NUMBERED = '\u0001#';

export const numberedColumn = (index: number): string => `${NUMBERED}${index}`;

const isNamedColumn = (column: string): boolean => column !== '' && !column.startsWith(NUMBERED);

function pickedColumn(column: string): string | number {
  return isNamedColumn(column) ? column : Number(column.slice(NUMBERED.length));
}
