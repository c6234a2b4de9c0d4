import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview } from '../../../shared/batch';
import type { BridgeInput } from '../../../shared/contract';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { ColumnField, HeaderRowField, LoadedFileLine, OpenListFile, SeparatorField, usePickableColumns } from '../batch/list-source-fields';
import { PASTED_LIST } from '../batch/batch-preview-panel';
import { useBatchPreview } from '../batch/use-batch-preview';
import { ReconcileInvalidLines } from './reconcile-invalid-lines';
import { useReconcile } from './reconcile-store';

/**
 * The application's uid list, read by batch.preview exactly as a batch's (its columns, its invalid lines, its
 * repeats; the draft it spools is discarded), and reconciled as that preview read it: its kind, separator, column.
 */
export function ReconcileInput({ busy, onStart }: { busy: boolean; onStart: (input: Omit<BridgeInput<'reconcile.start'>, 'profileId'>) => void }) {
  const { t } = useTranslation();
  const draft = useReconcile();
  const immediate = useRef(false);
  const text = draft.file ? draft.file.text : draft.pasted;
  const sourceName = draft.file?.name ?? PASTED_LIST;
  const { preview, pending, error } = useBatchPreview({ text, sourceName, separator: draft.separator, uidColumn: draft.uidColumn, referenceColumn: '', hasHeader: draft.hasHeader, immediate });
  const pickable = usePickableColumns(preview);
  const choose = (changes: Parameters<typeof draft.set>[0]) => {
    immediate.current = true;
    draft.set(changes);
  };
  const freshList = { separator: '', uidColumn: '', hasHeader: false } as const;
  const ready = preview !== null && !pending && preview.items > 0 && !busy;

  return (
    <CardSection title={t('reconcile.input.heading')} hint={t('reconcile.input.hint')} className="reconcile-card reconcile-input">
      {draft.file ? (
        <LoadedFileLine file={draft.file} onClear={() => draft.set({ file: null, ...freshList })} />
      ) : (
        <Field
          label={t('reconcile.input.pasteLabel')}
          render={({ id, describedBy }) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              className="input textarea mono reconcile-input__text"
              rows={6}
              value={draft.pasted}
              placeholder={t('reconcile.input.placeholder')}
              spellCheck={false}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              onPaste={() => {
                immediate.current = true;
              }}
              onChange={(event) => draft.set({ pasted: event.target.value })}
            />
          )}
        />
      )}
      <OpenListFile testId="reconcile-file" onOpen={(file) => choose({ file, ...freshList })} />
      <div className="grid-2">
        <SeparatorField value={draft.separator} onChange={(separator) => choose({ separator, uidColumn: '' })} />
        {pickable.length > 0 && <ColumnField label={t('batch.input.uidColumn')} none={t('batch.input.uidColumnAuto')} value={draft.uidColumn} pickable={pickable} onChange={(uidColumn) => choose({ uidColumn })} />}
      </div>
      <HeaderRowField preview={preview} checked={draft.hasHeader} onChange={(hasHeader) => choose({ hasHeader })} />
      {error ? <ErrorPanel title={t('reconcile.input.unreadable')} error={error} /> : null}
      {preview ? <ListSummary preview={preview} /> : null}
      <div className="reconcile-input__actions">
        <button type="button" className="button button--primary" disabled={!ready} onClick={() => preview && onStart(startInput(preview))}>
          {t('reconcile.start')}
        </button>
      </div>
    </CardSection>
  );
}

/** What the preview read: the count of distinct valid uids, and what was left out. */
function ListSummary({ preview }: { preview: BatchPreview }) {
  const { t } = useTranslation();
  const parts: string[] = [t('reconcile.input.read', { count: preview.items })];
  if (preview.uidColumn) parts.push(t('reconcile.input.column', { column: preview.uidColumn.name ?? String(preview.uidColumn.index + 1) }));
  if (preview.invalidCount > 0) parts.push(t('reconcile.input.invalid', { count: preview.invalidCount }));
  if (preview.duplicates > 0) parts.push(t('reconcile.input.duplicates', { count: preview.duplicates }));
  if (preview.edgeSpaces.count > 0) parts.push(t('reconcile.input.edgeSpaces', { count: preview.edgeSpaces.count }));
  return (
    <>
      <p className="reconcile-input__summary" role="status" data-testid="reconcile-list-summary">
        {parts.join(' · ')}
      </p>
      {preview.invalidCount > 0 ? <ReconcileInvalidLines preview={preview} /> : null}
    </>
  );
}

/** The reconciliation reads the list exactly as the preview on screen did. */
function startInput(preview: BatchPreview): Omit<BridgeInput<'reconcile.start'>, 'profileId'> {
  const text = useReconcile.getState().file?.text ?? useReconcile.getState().pasted;
  return {
    text,
    kind: preview.kind,
    ...(preview.separator ? { separator: preview.separator } : {}),
    ...(preview.uidColumn ? { uidColumn: preview.uidColumn.name ?? preview.uidColumn.index } : {}),
    hasHeader: preview.columns !== undefined,
    sourceName: preview.sourceName,
  };
}
