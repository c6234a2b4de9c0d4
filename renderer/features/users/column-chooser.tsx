import { useTranslation } from 'react-i18next';
import { useUiStore } from '../../state/ui-store';
import { fieldName } from './field-names';

/** A disclosure with one checkbox per extra field found on this page (kept across sessions). */
export function ColumnChooser({ available }: { available: { path: string; label: string }[] }) {
  const { t } = useTranslation();
  const visible = useUiStore((s) => s.visibleFields);
  const toggle = useUiStore((s) => s.toggleField);
  const shown = available.filter((field) => visible.includes(field.path)).length;
  return (
    <details className="column-chooser">
      <summary className="button">
        {t('users.columns')}
        {shown > 0 ? ` (${shown})` : ''}
      </summary>
      <fieldset className="column-chooser__panel">
        <legend>{t('users.columnsHint')}</legend>
        {available.length === 0 && <p className="muted">{t('users.noExtraColumns')}</p>}
        {available.map((field) => (
          <label key={field.path} className="checkbox">
            <input type="checkbox" checked={visible.includes(field.path)} onChange={() => toggle(field.path)} />
            <span>{fieldName(field.path, t)}</span>
          </label>
        ))}
      </fieldset>
    </details>
  );
}
