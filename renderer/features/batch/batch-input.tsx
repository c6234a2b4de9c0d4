import { useId, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview } from '../../../shared/batch';
import { ERASURE_ACTIONS } from '../../../shared/users';
import { CardSection } from '../../components/card-section';
import { Field } from '../../components/field';
import { formatNumber } from '../../i18n/format';
import { wordMessage } from '../../i18n/word-message';
import { referenceProblem, referenceProblemText } from '../../../shared/reference';
import { useBatchDraft, type InputSeparator } from './batch-draft-store';
import { numberedColumn } from './use-batch-preview';

const ACCEPTED_FILES = '.csv,.tsv,.txt,.tab,text/csv,text/tab-separated-values,text/plain';
const SEPARATOR_CHOICES = [
  ['', 'separatorAuto'],
  ['comma', 'separatorComma'],
  ['semicolon', 'separatorSemicolon'],
  ['tab', 'separatorTab'],
  ['none', 'separatorNone'],
] as const satisfies ReadonlyArray<readonly [InputSeparator, string]>;

/** Step 1: the list (pasted, or a file read in this window), its columns, the reference and the operation. */
export function BatchInput({ preview, immediate }: { preview: BatchPreview | null; immediate: RefObject<boolean> }) {
  const { t, i18n } = useTranslation();
  const draft = useBatchDraft();
  // The reference rule the gate applies, said as it is typed (shared/reference.ts).
  const referenceIssue = referenceProblem(draft.reference);
  const referenceError = referenceIssue ? wordMessage(i18n, referenceProblemText(referenceIssue)) : undefined;
  const fileInputId = useId();
  const [fileError, setFileError] = useState<string | null>(null);
  const columns = preview?.columns;
  // Columns to pick from: by their header names, or by their numbers when the first row is data.
  const pickable = columns?.length
    ? columns.map((column) => ({ value: column, label: column }))
    : preview && preview.kind !== 'list' && (preview.columnCount ?? 0) > 1
      ? Array.from({ length: preview.columnCount ?? 0 }, (_, index) => ({ value: numberedColumn(index), label: t('batch.input.columnNumber', { n: index + 1 }) }))
      : [];

  const openFile = async (file: File | undefined) => {
    if (!file) return;
    setFileError(null);
    try {
      const text = await file.text();
      immediate.current = true;
      draft.set({ file: { name: file.name, text, size: file.size }, separator: '', uidColumn: '', referenceColumn: '', hasHeader: false, typed: '' });
    } catch {
      // The browser's own message is in the browser's language, not the window's: say what to check instead.
      setFileError(t('batch.input.fileFailed'));
    }
  };

  return (
    <CardSection title={t('batch.input.heading')} hint={t('batch.input.hint')} className="batch-card batch-input">
      {draft.file ? (
        <div className="batch-file" role="status">
          <span className="batch-file__name">{t('batch.input.fileLoaded', { name: draft.file.name, size: formatSize(draft.file.size, i18n.language) })}</span>
          <button type="button" className="button button--small" onClick={() => draft.set({ file: null, separator: '', uidColumn: '', referenceColumn: '', hasHeader: false, typed: '' })}>
            {t('batch.input.clearFile')}
          </button>
        </div>
      ) : (
        <Field
          label={t('batch.input.pasteLabel')}
          render={({ id, describedBy }) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              className="input textarea mono batch-input__text"
              rows={8}
              value={draft.pasted}
              placeholder={t('batch.input.pastePlaceholder')}
              spellCheck={false}
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              onPaste={() => {
                immediate.current = true;
              }}
              onChange={(event) => draft.set({ pasted: event.target.value, typed: '' })}
            />
          )}
        />
      )}
      <div className="batch-input__file">
        {/* A real file input, labelled as a button: the keyboard and screen readers reach it as usual. */}
        <input
          id={fileInputId}
          type="file"
          accept={ACCEPTED_FILES}
          className="visually-hidden"
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
      <Field
        label={t('batch.input.separator')}
        render={({ id }) => (
          <select
            id={id}
            className="select"
            value={draft.separator}
            onChange={(event) => {
              immediate.current = true;
              // Other columns once split otherwise: the picks go back to automatic.
              draft.set({ separator: event.target.value as InputSeparator, uidColumn: '', referenceColumn: '', typed: '' });
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
      {preview && preview.kind !== 'list' && !columns && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.hasHeader}
            onChange={(event) => {
              immediate.current = true;
              draft.set({ hasHeader: event.target.checked, typed: '' });
            }}
          />
          <span>{t('batch.input.hasHeader')}</span>
        </label>
      )}
      {pickable.length > 0 && (
        <div className="grid-2">
          <Field
            label={t('batch.input.uidColumn')}
            render={({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.uidColumn}
                onChange={(event) => {
                  immediate.current = true;
                  draft.set({ uidColumn: event.target.value, typed: '' });
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
          <Field
            label={t('batch.input.referenceColumn')}
            render={({ id }) => (
              <select
                id={id}
                className="select"
                value={draft.referenceColumn}
                onChange={(event) => {
                  immediate.current = true;
                  draft.set({ referenceColumn: event.target.value });
                }}
              >
                <option value="">{t('batch.input.referenceColumnNone')}</option>
                {pickable.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          />
        </div>
      )}
      <Field label={t('batch.input.reference')} hint={t('batch.input.referenceHint')} error={referenceError} value={draft.reference} onChange={(event) => draft.set({ reference: event.target.value })} autoComplete="off" />
      <fieldset className="batch-operation">
        <legend className="field__label">{t('batch.input.operation')}</legend>
        <div className="batch-operation__choices">
          {ERASURE_ACTIONS.map((action) => (
            <label key={action} className="radio">
              <input type="radio" name="batch-operation" value={action} checked={draft.action === action} onChange={() => draft.set({ action, typed: '' })} />
              <span>{t(`batch.operations.${action}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <label className="checkbox">
        <input type="checkbox" checked={draft.logoutFirst} onChange={(event) => draft.set({ logoutFirst: event.target.checked, typed: '' })} aria-describedby={`${fileInputId}-logout-hint`} />
        <span>{t('batch.input.logoutFirst')}</span>
      </label>
      <p id={`${fileInputId}-logout-hint`} className="muted small batch-input__hint">
        {t('batch.input.logoutFirstHint')}
      </p>
    </CardSection>
  );
}

function formatSize(bytes: number, language: string): string {
  if (bytes < 1024) return `${formatNumber(bytes, language)} B`;
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 1024), language)} KB`;
  return `${formatNumber(Math.round(bytes / 1024 / 102.4) / 10, language)} MB`;
}
