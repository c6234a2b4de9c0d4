import { useTranslation } from 'react-i18next';
import type { ConnectionCheck } from '../../../shared/contract';
import { ErrorQuote } from '../../components/error-panel';
import { wordError, wordMessage } from '../../i18n/word-message';

/** Each step of "Test connection" with ✓/✗ in words as well as colour. */
export function ConnectionChecks({ checks, profileName }: { checks: ConnectionCheck[]; profileName: string }) {
  const { t, i18n } = useTranslation();
  return (
    <ol className="checks" aria-label={t('connection.resultsLabel', { name: profileName })}>
      {checks.map((check) => (
        <li key={check.step} className={`check ${check.ok ? 'check--ok' : 'check--failed'}`}>
          <span className="check__mark" aria-hidden="true">{check.ok ? '✓' : '✗'}</span>
          <div className="check__body">
            <p className="check__title">
              {t(`connection.steps.${check.step}`)}
              <span className="visually-hidden">{t('common.labelled', { label: '' })} {check.ok ? t('connection.passed') : t('connection.failed')}</span>
            </p>
            {check.detail && <p className="check__detail">{wordMessage(i18n, check.detail)}</p>}
            {check.error && (
              <p className="check__error">
                <code>{check.error.code}</code> {wordError(i18n, check.error)}
                {check.error.requestId ? ` (${t('common.labelled', { label: t('common.requestId') })} ${check.error.requestId})` : ''}
              </p>
            )}
            {check.error?.quote && <ErrorQuote quote={check.error.quote} />}
          </div>
        </li>
      ))}
    </ol>
  );
}
