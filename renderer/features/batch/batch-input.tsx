import { useId, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview } from '../../../shared/batch';
import { ERASURE_ACTIONS } from '../../../shared/users';
import { CardSection } from '../../components/card-section';
import { Field } from '../../components/field';
import { wordMessage } from '../../i18n/word-message';
import { referenceProblem, referenceProblemText } from '../../../shared/reference';
import { useBatchDraft } from './batch-draft-store';
import { ColumnField, HeaderRowField, LoadedFileLine, OpenListFile, SeparatorField, usePickableColumns } from './list-source-fields';

/** Step 1: the list (pasted, or a file read in this window), its columns, the reference and the operation. */
export function BatchInput({ preview, immediate }: { preview: BatchPreview | null; immediate: RefObject<boolean> }) {
  const { t, i18n } = useTranslation();
  const draft = useBatchDraft();
  // The reference rule the gate applies, said as it is typed (shared/reference.ts).
  const referenceIssue = referenceProblem(draft.reference);
  const referenceError = referenceIssue ? wordMessage(i18n, referenceProblemText(referenceIssue)) : undefined;
  const hintId = useId();
  const pickable = usePickableColumns(preview);
  const choose = (changes: Parameters<typeof draft.set>[0]) => {
    immediate.current = true;
    draft.set(changes);
  };
  // Other columns once split otherwise, another file: the picks go back to automatic, the typed count to nothing.
  const freshList = { separator: '', uidColumn: '', referenceColumn: '', hasHeader: false, typed: '' } as const;

  return (
    <CardSection title={t('batch.input.heading')} hint={t('batch.input.hint')} className="batch-card batch-input">
      {draft.file ? (
        <LoadedFileLine file={draft.file} onClear={() => draft.set({ file: null, ...freshList })} />
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
      <OpenListFile onOpen={(file) => choose({ file, ...freshList })} />
      <SeparatorField value={draft.separator} onChange={(separator) => choose({ separator, uidColumn: '', referenceColumn: '', typed: '' })} />
      <HeaderRowField preview={preview} checked={draft.hasHeader} onChange={(hasHeader) => choose({ hasHeader, typed: '' })} />
      {pickable.length > 0 && (
        <div className="grid-2">
          <ColumnField label={t('batch.input.uidColumn')} none={t('batch.input.uidColumnAuto')} value={draft.uidColumn} pickable={pickable} onChange={(uidColumn) => choose({ uidColumn, typed: '' })} />
          <ColumnField label={t('batch.input.referenceColumn')} none={t('batch.input.referenceColumnNone')} value={draft.referenceColumn} pickable={pickable} onChange={(referenceColumn) => choose({ referenceColumn })} />
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
        <input type="checkbox" checked={draft.logoutFirst} onChange={(event) => draft.set({ logoutFirst: event.target.checked, typed: '' })} aria-describedby={hintId} />
        <span>{t('batch.input.logoutFirst')}</span>
      </label>
      <p id={hintId} className="muted small batch-input__hint">
        {t('batch.input.logoutFirstHint')}
      </p>
    </CardSection>
  );
}

