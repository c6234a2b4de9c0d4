import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview } from '../../../shared/batch';
import { Field } from '../../components/field';
import { formatNumber } from '../../i18n/format';
import type { InputSeparator } from './batch-draft-store';
import { numberedColumn } from './use-batch-preview';

/**
 * The parts of a uid list's form that the Batch and Reconcile tabs share, so both read a list the same way: the file
 * opened in this window (or shown once loaded), the separator, the column picks, "the first row is a header".
 */

const ACCEPTED_FILES = '.csv,.tsv,.txt,.tab,text/csv,text/tab-separated-values,text/plain';
const SEPARATOR_CHOICES = [
  ['', 'separatorAuto'],
  ['comma', 'separatorComma'],
  ['semicolon', 'separatorSemicolon'],
  ['tab', 'separatorTab'],
  ['none', 'separatorNone'],
] as const satisfies ReadonlyArray<readonly [InputSeparator, string]>;

export interface LoadedListFile {
  name: string;
  text: string;
  size: number;
}

export interface PickableColumn {
  value: string;
  label: string;
}

/** Columns to pick from: by their header names, or by their numbers when the first row is data. */
export function usePickableColumns(preview: BatchPreview | null): PickableColumn[] {
  const { t } = useTranslation();
  const columns = preview?.columns;
  if (columns?.length) return columns.map((column) => ({ value: column, label: column }));
  if (preview && preview.kind !== 'list' && (preview.columnCount ?? 0) > 1) {
    return Array.from({ length: preview.columnCount ?? 0 }, (_, index) => ({ value: numberedColumn(index), label: t('batch.input.columnNumber', { n: index + 1 }) }));
  }
  return [];
}

/** A real file input, labelled as a button (the keyboard and screen readers reach it as usual); the file is read here, in the window. */
export function OpenListFile({ onOpen, testId, describedById }: { onOpen: (file: LoadedListFile) => void; testId?: string; describedById?: string }) {
  const { t } = useTranslation();
  const fileInputId = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const open = async (file: File | undefined) => {
    if (!file) return;
    setFileError(null);
    try {
      onOpen({ name: file.name, text: await file.text(), size: file.size });
    } catch {
      // The browser's own message is in the browser's language, not the window's: say what to check instead.
      setFileError(t('batch.input.fileFailed'));
    }
  };
  return (
    <>
      <div className="batch-input__file" id={describedById}>
        <input
          id={fileInputId}
          type="file"
          accept={ACCEPTED_FILES}
          className="visually-hidden"
          {...(testId ? { 'data-testid': testId } : {})}
          onChange={(event) => {
            void open(event.target.files?.[0]);
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
    </>
  );
}

/** The file read, its name and size, and a way back to pasting. */
export function LoadedFileLine({ file, onClear }: { file: LoadedListFile; onClear: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="batch-file" role="status">
      <span className="batch-file__name">{t('batch.input.fileLoaded', { name: file.name, size: formatSize(file.size, i18n.language) })}</span>
      <button type="button" className="button button--small" onClick={onClear}>
        {t('batch.input.clearFile')}
      </button>
    </div>
  );
}

export function SeparatorField({ value, onChange }: { value: InputSeparator; onChange: (separator: InputSeparator) => void }) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('batch.input.separator')}
      render={({ id }) => (
        <select id={id} className="select" value={value} onChange={(event) => onChange(event.target.value as InputSeparator)}>
          {SEPARATOR_CHOICES.map(([choice, key]) => (
            <option key={key} value={choice}>
              {t(`batch.input.${key}`)}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** One column pick: `none` is the first choice's words (automatic, or no column). */
export function ColumnField({ label, none, value, pickable, onChange }: { label: string; none: string; value: string; pickable: readonly PickableColumn[]; onChange: (column: string) => void }) {
  return (
    <Field
      label={label}
      render={({ id }) => (
        <select id={id} className="select" value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{none}</option>
          {pickable.map((column) => (
            <option key={column.value} value={column.value}>
              {column.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** "The first row is a header", offered only for rows whose header could not be told (no column names found). */
export function HeaderRowField({ preview, checked, onChange }: { preview: BatchPreview | null; checked: boolean; onChange: (hasHeader: boolean) => void }) {
  const { t } = useTranslation();
  if (!preview || preview.kind === 'list' || preview.columns) return null;
  return (
    <label className="checkbox">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{t('batch.input.hasHeader')}</span>
    </label>
  );
}

export function formatSize(bytes: number, language: string): string {
  if (bytes < 1024) return `${formatNumber(bytes, language)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 1024), language)} KB`;
  return `${formatNumber(Math.round(bytes / 1024 / 102.4) / 10, language)} MB`;
}
