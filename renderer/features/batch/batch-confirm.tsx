import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { batchConfirmationPhrase, matchesBatchConfirmation } from '../../../shared/batch';
import type { ErasureAction } from '../../../shared/users';
import { Field } from '../../components/field';

interface BatchConfirmProps {
  action: ErasureAction;
  /** How many items the run sends: the number in the phrase. */
  count: number;
  typed: string;
  onTyped: (typed: string) => void;
  onStart: () => void;
  starting: boolean;
  /** Why Start cannot be used yet (the preview is not the current list's), shown instead of the match hint. */
  blocked?: string;
  startLabel: string;
  children?: ReactNode;
}

/** The typed confirmation: the operation in capitals and the count (`DELETE 20`); Start works only when it matches. */
export function BatchConfirm({ action, count, typed, onTyped, onStart, starting, blocked, startLabel, children }: BatchConfirmProps) {
  const { t } = useTranslation();
  const phrase = batchConfirmationPhrase(action, count);
  const matches = count > 0 && matchesBatchConfirmation(typed, action, count);
  const ready = matches && !blocked && !starting;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) onStart();
  };
  return (
    <form className="form batch-confirm" onSubmit={submit}>
      <Field
        label={t('batch.confirm.typePhrase', { phrase })}
        liveHint
        hint={blocked ? <span>{blocked}</span> : <span className={matches ? 'text-success' : undefined}>{!typed ? t('batch.confirm.hint') : matches ? t('batch.confirm.matches') : t('batch.confirm.noMatch')}</span>}
        value={typed}
        onChange={(event) => onTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        className="field--mono batch-confirm__field"
        maxLength={100}
      />
      {children}
      <div className="batch-confirm__actions">
        <button type="submit" className="button button--danger button--large" disabled={!ready}>
          {starting ? t('batch.confirm.starting') : startLabel}
        </button>
      </div>
    </form>
  );
}
