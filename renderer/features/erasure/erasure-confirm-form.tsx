import { useTranslation } from 'react-i18next';
import { referenceProblem, referenceProblemText } from '../../../shared/reference';
import { Field } from '../../components/field';
import { wordMessage } from '../../i18n/word-message';
import { ConfirmHint } from './confirm-hint';

interface ErasureConfirmFormProps {
  uid: string;
  typed: string;
  onTyped: (typed: string) => void;
  reference: string;
  onReference: (reference: string) => void;
  logoutFirst: boolean;
  onLogoutFirst: (logoutFirst: boolean) => void;
  /** The countdown was cancelled: nothing was sent. */
  cancelled: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The typed uid, the reference and "log out first", then Confirm. Confirm works only on an exact match and a
 * reference the audit trail can keep: a reference too long is kept whole in the field (never cut to fit) and
 * refused with the gate's own rule before anything is sent.
 */
export function ErasureConfirmForm({ uid, typed, onTyped, reference, onReference, logoutFirst, onLogoutFirst, cancelled, onConfirm, onCancel }: ErasureConfirmFormProps) {
  const { t, i18n } = useTranslation();
  const matches = typed === uid;
  const problem = referenceProblem(reference);
  const referenceError = problem ? wordMessage(i18n, referenceProblemText(problem)) : undefined;
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (matches && !problem) onConfirm();
      }}
    >
      <Field
        label={t('erasure.typeUid')}
        liveHint
        hint={<ConfirmHint typed={typed} uid={uid} />}
        value={typed}
        onChange={(event) => onTyped(event.target.value)}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        className="field--mono"
      />
      <Field label={t('erasure.reference')} hint={t('erasure.referenceHint')} error={referenceError} value={reference} onChange={(event) => onReference(event.target.value)} autoComplete="off" />
      <label className="checkbox">
        <input type="checkbox" checked={logoutFirst} onChange={(event) => onLogoutFirst(event.target.checked)} aria-describedby="erasure-logout-first-hint" />
        <span>{t('erasure.logoutFirst')}</span>
      </label>
      <p id="erasure-logout-first-hint" className="muted">
        {t('erasure.logoutFirstHint')}
      </p>
      {cancelled && (
        <p className="callout callout--info" role="status">
          {t('erasure.cancelled')}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        {/* After a cancel, focus returns here rather than to the page behind. */}
        <button type="submit" className="button button--danger" disabled={!matches || problem !== undefined} autoFocus={cancelled}>
          {t('common.confirm')}
        </button>
      </div>
    </form>
  );
}
