import { useTranslation } from 'react-i18next';
import type { ErrorInfo } from '../../shared/errors';
import { toErrorInfo } from '../../shared/errors';
import { isUnrecordedOutcome } from './unrecorded-outcome';

interface ErrorPanelProps {
  title: string;
  error: unknown;
  /** For an act (erase, logout): say how it ended, so the operator knows whether to check the user. */
  showOutcome?: boolean;
  onRetry?: () => void;
  retrying?: boolean;
}

/** An error as an operator needs it: what happened and what to do, the code and the request id for the ticket. */
export function ErrorPanel({ title, error, showOutcome, onRetry, retrying }: ErrorPanelProps) {
  const { t } = useTranslation();
  const info: ErrorInfo = toErrorInfo(error);
  return (
    <div className="error-panel" role="alert">
      <p className="error-panel__title">
        <span aria-hidden="true" className="error-panel__icon">!</span>
        {title}
      </p>
      {isUnrecordedOutcome(error) && (
        <div className="error-panel__unrecorded" data-testid="outcome-unrecorded">
          <p className="error-panel__unrecorded-title">
            <span aria-hidden="true">⚠ </span>
            {t('audit.outcomeUnrecordedTitle')}
          </p>
          <p>{t('audit.outcomeUnrecordedBody', { outcome: t(`audit.outcomes.${info.outcome}`) })}</p>
        </div>
      )}
      <p className="error-panel__message">{info.message}</p>
      {showOutcome && (
        <p className={`error-panel__outcome error-panel__outcome--${info.outcome}`} data-outcome={info.outcome}>
          <strong>{t('common.labelled', { label: t('outcome.label') })}</strong> {t(`outcome.${info.outcome}`)}
        </p>
      )}
      <dl className="error-panel__facts">
        <div>
          <dt>{t('common.errorCode')}</dt>
          <dd><code>{info.code}</code></dd>
        </div>
        {info.status !== undefined && (
          <div>
            <dt>{t('common.httpStatus')}</dt>
            <dd><code>{info.status}</code></dd>
          </div>
        )}
        {info.requestId && (
          <div>
            <dt>{t('common.requestId')}</dt>
            <dd><code className="selectable">{info.requestId}</code></dd>
          </div>
        )}
        {info.retryAfterSeconds !== undefined && (
          <div>
            <dt>{t('common.retryAfter', { seconds: info.retryAfterSeconds })}</dt>
          </div>
        )}
      </dl>
      {onRetry && (
        <button type="button" className="button" onClick={onRetry} disabled={retrying}>
          {t('app.retry')}
        </button>
      )}
    </div>
  );
}
