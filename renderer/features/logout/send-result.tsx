import { useTranslation } from 'react-i18next';
import { ErrorPanel } from '../../components/error-panel';
import { JsonBlock } from '../../components/json-block';
import { formatNumber } from '../../i18n/format';
import { judgeLogout, type LogoutVerdict } from '../../../shared/logout';
import type { LogoutTestOutcome } from './use-logout-test';

// The badge wears the verdict's colour and mark, never the status class's: a 200 whose body says it failed is not green.
const BADGE = {
  'as-expected': { tone: 'status-badge--ok', mark: '✓' },
  'not-as-expected': { tone: 'status-badge--refused', mark: '✗' },
  inconclusive: { tone: 'status-badge--inconclusive', mark: '○' },
} as const satisfies Record<LogoutVerdict, { tone: string; mark: string }>;

/** The service's answer to the last logout: status, latency, headers, body, and sandbox sessions. */
export function SendResult({ outcome }: { outcome: LogoutTestOutcome }) {
  const { t, i18n } = useTranslation();
  const { result, failure } = outcome;
  const judged = result ? judgeLogout(outcome.testCase, result) : undefined;

  return (
    <section className="card send-result" aria-labelledby="send-result-title">
      <header className="card__header">
        <h3 id="send-result-title" className="card__title">
          {t('logout.result')} · {t(`logout.cases.${outcome.testCase}`)}
        </h3>
        {result && judged && (
          <span className={`status-badge ${BADGE[judged.verdict].tone}`} data-testid="logout-badge" data-verdict={judged.verdict}>
            <span aria-hidden="true">{BADGE[judged.verdict].mark} </span>
            {result.status} · {t(`logout.answers.${judged.answer}`)}
          </span>
        )}
      </header>
      {failure !== undefined && <ErrorPanel title={t('logout.sendFailed')} error={failure} showOutcome />}
      {result && result.outcome !== 'done' && (
        <p className={`send-result__outcome error-panel__outcome--${result.outcome}`} data-outcome={result.outcome}>
          <strong>{t('common.labelled', { label: t('outcome.label') })}</strong> {t(`outcome.${result.outcome}`)}
        </p>
      )}
      {result && (
        <>
          <dl className="facts facts--inline">
            <div>
              <dt>{t('logout.latency')}</dt>
              <dd>{t('logout.latencyValue', { ms: formatNumber(Math.round(result.elapsedMs), i18n.language) })}</dd>
            </div>
            {result.requestId && (
              <div>
                <dt>{t('common.requestId')}</dt>
                <dd className="mono selectable">{result.requestId}</dd>
              </div>
            )}
          </dl>
          <h4 className="subheading">{t('logout.responseHeaders')}</h4>
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col">{t('logout.headerName')}</th>
                <th scope="col">{t('logout.headerValue')}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(result.headers).map(([name, value]) => (
                <tr key={name}>
                  <td className="mono">{name}</td>
                  <td className="mono break">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h4 className="subheading">{t('logout.body')}</h4>
          {result.body === '' || result.body === undefined || result.body === null ? (
            <p className="muted">{t('logout.emptyBody')}</p>
          ) : (
            <JsonBlock value={result.body} label={t('logout.body')} />
          )}
        </>
      )}
      {outcome.sessionsBefore !== undefined && outcome.sessionsAfter !== undefined && (
        <p className="sessions">
          <strong>{t('common.labelled', { label: t('logout.sessions') })}</strong> {t('logout.sessionsBefore', { count: outcome.sessionsBefore })} →{' '}
          {t('logout.sessionsAfter', { count: outcome.sessionsAfter })}
        </p>
      )}
    </section>
  );
}
