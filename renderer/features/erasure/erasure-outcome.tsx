import { useTranslation } from 'react-i18next';
import { toErrorInfo } from '../../../shared/errors';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';

/**
 * How an act that ended in an error ended, as far as what to do next goes. `done` is an act the service confirmed
 * whose outcome the audit trail could not record: there is nothing more to send.
 */
export type OutcomeStep = 'unknown' | 'not-found' | 'refused' | 'not-sent' | 'done';

export function outcomeStep(error: unknown): OutcomeStep {
  const info = toErrorInfo(error);
  return info.code === 'NOT_FOUND' ? 'not-found' : info.outcome;
}

interface ErasureOutcomeProps {
  uid: string;
  error: unknown;
  onClose: () => void;
  /** Closes the dialog and looks the uid up on a list read now; undefined where "Find a person" is not on screen. */
  onLookUp?: () => void;
  /** Back to an empty confirmation (only where nothing was changed). */
  onStartAgain: () => void;
}

/**
 * What the dialog shows once the service has answered (or could not be reached): the outcome and the next step,
 * and nothing armed. A typed confirmation never outlives the request it confirmed: after an unknown outcome or a
 * "not found" the next step is to check the user; only where nothing was changed can the operator start again,
 * with a new typed confirmation. Short, so it fits without scrolling at 1024×700.
 */
export function ErasureOutcome({ uid, error, onClose, onLookUp, onStartAgain }: ErasureOutcomeProps) {
  const { t } = useTranslation();
  const step = outcomeStep(error);
  const checkFirst = step === 'unknown' || step === 'not-found';
  const canStartAgain = step === 'refused' || step === 'not-sent';
  return (
    <div className="erasure-outcome">
      <p className="erasure-outcome__uid">
        <span className="erasure-uid__label">{t('erasure.uidToErase')}</span> <VisibleUid uid={uid} />
      </p>
      <ErrorPanel title={t('erasure.failed')} error={error} showOutcome />
      <p className={checkFirst ? 'callout callout--warning' : 'muted'}>
        {checkFirst && <span aria-hidden="true">⚠ </span>}
        {t(`erasure.next.${step}`)} {checkFirst && !onLookUp ? t('identity.lookUpPointer') : null}
      </p>
      <div className="dialog__actions">
        <button type="button" className="button button--ghost" onClick={onClose} autoFocus={!canStartAgain && !(checkFirst && onLookUp)}>
          {t('common.close')}
        </button>
        {checkFirst && onLookUp && (
          <button type="button" className="button button--primary" onClick={onLookUp} autoFocus>
            {t('identity.lookUp')}
          </button>
        )}
        {canStartAgain && (
          <button type="button" className="button" onClick={onStartAgain} autoFocus>
            {t('erasure.startAgain')}
          </button>
        )}
      </div>
    </div>
  );
}
