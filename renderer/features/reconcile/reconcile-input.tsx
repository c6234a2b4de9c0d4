import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview } from '../../../shared/batch';
import type { BridgeInput } from '../../../shared/contract';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { formatNumber } from '../../i18n/format';
import type { InputSeparator } from '../batch/batch-draft-store';
import { PASTED_LIST } from '../batch/batch-preview-panel';
import { numberedColumn, useBatchPreview } from '../batch/use-batch-preview';
import { ReconcileInvalidLines } from './reconcile-invalid-lines';
import { useReconcile } from './reconcile-store';

const ACCEPTED_FILES = '.csv,.tsv,.txt,.tab,text/csv,text/tab-separated-values,text/plain';
const SEPARATOR_CHOICES = [
  ['', 'separatorAuto'],
  ['comma', 'separatorComma'],
  ['semicolon', 'separatorSemicolon'],
  ['tab', 'separatorTab'],
  ['none', 'separatorNone'],
] as const satisfies ReadonlyArray<readonly [InputSeparator, string]>;

/**
 * The application's uid list, read by batch.preview exactly as a batch's (its columns, its invalid lines, its
 * repeats; the draft it spools is discarded), and reconciled as that preview read it: its kind, separator, column.
 */
export function ReconcileInput({ busy, onStart }: { busy: boolean; onStart: (input: Omit<BridgeInput<'reconcile.start'>, 'profileId'>) => void }) {
  const { t, i18n } = useTranslation();
  const draft = useReconcile();
  const immediate = useRef(false);
  const fileInputId = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const text = draft.file ? draft.file.text : draft.pasted;
  const sourceName = draft.file?.name ?? PASTED_LIST;
  const { preview, pending, error } = useBatchPreview({ text, sourceName, separator: draft.separator, uidColumn: draft.uidColumn, referenceColumn: '', hasHeader: draft.hasHeader, immediate });
  const columns = preview?.columns;
  const pickable = columns?.length
    ? columns.map((column) => ({ value: column, label: column }))
    : preview && preview.kind !== 'list' && (preview.columnCount ?? 0) > 1
      ? Array.from({ length: preview.columnCount ?? 0 }, (_, index) => ({ value: numberedColumn(index), label: t('batch.input.columnNumber', { n: index + 1 }) }))
      : [];
  const n = (value: number) => formatNumber(value, i18n.language);

  const openFile = async (file: File | undefined) => {
    if (!file) return;
    setFileError(null);
    try {
      const fileText = await file.text();
      immediate.current = true;
      draft.set({ file: { name: file.name, text: fileText, size: file.size }, separator: '', uidColumn: '', hasHeader: false });
    } catch {
      setFileError(t('batch.input.fileFailed'));
    }
  };
  const ready = preview !== null && !pending && preview.items > 0 && !busy;

  return (
    <CardSection title={t('reconcile.input.heading')} hint={t('reconcile.input.hint')} className="reconcile-card reconcile-input">
      {draft.file ? (
        <div className="batch-file" role="status">
          <span className="batch-file__name">{t('batch.input.fileLoaded', { name: draft.file.name, size: `${n(Math.max(1, Math.round(draft.file.size / 1024)))} KB` })}</span>
          <button type="button" className="button button--small" onClick={() => draft.set({ file: null, separator: '', uidColumn: '', hasHeader: false })}>
            {t('batch.input.clearFile')}
          </button>
        </div>
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
      <div className="batch-input__file">
        <input
          id={fileInputId}
          type="file"
          accept={ACCEPTED_FILES}
          className="visually-hidden"
          data-testid="reconcile-file"
          onChange={(event) => {
            void openFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
        <label htmlFor={fileInputId} className="button button--small">
          {t('batch.input.openFile')}
        </label>
        <span className="muted small">{t('batch.input.fileHint')}</span>
      </div>
      {fileError && (
        <p className="field__error" role="alert">
          {fileError}
        </p>
      )}
      <div className="grid-2">
        <Field
          label={t('batch.input.separator')}
          render={({ id }) => (
            <select
              id={id}
              className="select"
              value={draft.separator}
              onChange={(event) => {
                immediate.current = true;
                draft.set({ separator: event.target.value as InputSeparator, uidColumn: '' });
              }}
            >
              {SEPARATOR_CHOICES.map(([value, key]) => (
                <option key={key} value={value}>
                  {t(`batch.input.${key}`)}
                </option>
              ))}
            </select>
          )}
        />
        {pickable.length > 0 && (
          <Field
            label={t('batch.input.uidColumn')}
            render={({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.uidColumn}
                onChange={(event) => {
                  immediate.current = true;
                  draft.set({ uidColumn: event.target.value });
                }}
              >
                <option value="">{t('batch.input.uidColumnAuto')}</option>
                {pickable.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          />
        )}
      </div>
      {preview && preview.kind !== 'list' && !columns && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.hasHeader}
            onChange={(event) => {
              immediate.current = true;
              draft.set({ hasHeader: event.target.checked });
            }}
          />
          <span>{t('batch.input.hasHeader')}</span>
        </label>
      )}
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
