import { useTranslation } from 'react-i18next';
import type { ConnectionCheck } from '../../../shared/contract';

/** Each step of "Test connection" with ✓/✗ in words as well as colour. */
export function ConnectionChecks({ checks, profileName }: { checks: ConnectionCheck[]; profileName: string }) {
  const { t } = useTranslation();
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
            {check.detail && <p className="check__detail">{check.detail}</p>}
            {check.error && (
              <p className="check__error">
                <code>{check.error.code}</code> {check.error.message}
                {check.error.requestId ? ` (${t('common.requestId')}: ${check.error.requestId})` : ''}
              </p>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
