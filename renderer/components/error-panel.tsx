import { useTranslation } from 'react-i18next';
import type { ErrorInfo } from '../../shared/errors';
import { toErrorInfo } from '../../shared/errors';
import { wordError } from '../i18n/word-message';
import { isUnrecordedOutcome } from './unrecorded-outcome';

interface ErrorPanelProps {
  title: string;
  error: unknown;
  /** For an act (erase, logout): say how it ended, so the operator knows whether to check the user. */
  showOutcome?: boolean;
  onRetry?: () => void;
  retrying?: boolean;
}

/**
 * An error as an operator needs it: what happened and what to do in the window's language (from the
 * error's message id, else what its code always means), the code and the request id for the ticket.
 */
export function ErrorPanel({ title, error, showOutcome, onRetry, retrying }: ErrorPanelProps) {
  const { t, i18n } = useTranslation();
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
      <p className="error-panel__message">{wordError(i18n, info)}</p>
      {info.quote && <ErrorQuote quote={info.quote} />}
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

/** Words quoted as said, never translated: marked as the service's (or the system's), in no language of ours. */
export function ErrorQuote({ quote }: { quote: NonNullable<ErrorInfo['quote']> }) {
  const { t } = useTranslation();
  return (
    <p className="error-panel__quote">
      {quote.from === 'service' ? t('errors.serviceSaid') : t('errors.systemSaid')}{' '}
      {quote.from === 'service' ? (
        <q lang="" className="selectable">
          {quote.text}
        </q>
      ) : (
        <code lang="" className="selectable">
          {quote.text}
        </code>
      )}
    </p>
  );
}
