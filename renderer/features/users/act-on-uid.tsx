import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_UID_LENGTH, uidProblem } from '../../../shared/uid';
import { UID_PROBLEM_KEYS } from './uid-problem-keys';
import { UidHints, VisibleUid } from '../../components/visible-uid';
import { useUiStore } from '../../state/ui-store';
import { CardSection } from '../../components/card-section';


/** For a uid from a ticket: typed or pasted exactly, never trimmed (" alice" is not "alice"). */
export function ActOnUid() {
  const { t } = useTranslation();
  const inputId = useId();
  const [uid, setUid] = useState('');
  const openErasure = useUiStore((s) => s.openErasure);
  const testLogout = useUiStore((s) => s.testLogout);
  // The shared rule alone decides: the empty string is the only "empty" (a uid of spaces is a real uid).
  const uidCheck = uidProblem(uid);
  const usable = uidCheck === undefined;
  const problemKey = uidCheck ? UID_PROBLEM_KEYS[uidCheck.code] : undefined;
  const problem = problemKey ? t(`uid.problems.${problemKey}`, { max: MAX_UID_LENGTH }) : undefined;
  return (
    <CardSection title={t('actOnUid.title')} hint={t('actOnUid.hint')} className="act-on-uid">
      <div className="act-on-uid__row">
        <label htmlFor={inputId} className="visually-hidden">
          {t('actOnUid.label')}
        </label>
        <input
          id={inputId}
          className="input mono"
          value={uid}
          onChange={(event) => setUid(event.target.value)}
          placeholder={t('actOnUid.placeholder')}
          autoComplete="off"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${inputId}-problem` : undefined}
        />
        <button type="button" className="button" disabled={!usable} onClick={() => openErasure({ action: 'anonymize', uid })}>
          {t('users.anonymize')}
        </button>
        <button type="button" className="button button--danger-ghost" disabled={!usable} onClick={() => openErasure({ action: 'delete', uid })}>
          {t('users.delete')}
        </button>
        <button type="button" className="button button--ghost" disabled={!usable} onClick={() => testLogout(uid)}>
          {t('users.testLogout')}
        </button>
      </div>
      {problem && (
        <p id={`${inputId}-problem`} className="field__error">
          <span aria-hidden="true">✗ </span>
          {problem}
        </p>
      )}
      {usable && (uid.includes(' ') || uid !== uid.trim()) && (
        <div className="act-on-uid__preview">
          <VisibleUid uid={uid} />
          <UidHints uid={uid} />
        </div>
      )}
    </CardSection>
  );
}
