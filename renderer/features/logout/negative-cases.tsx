import { useTranslation } from 'react-i18next';
import { NEGATIVE_CASES, type NegativeCase } from '../../../shared/logout';
import type { LogoutTestRecord } from './logout-store';
import { CardSection } from '../../components/card-section';

interface NegativeCasesProps {
  history: LogoutTestRecord[];
  disabled: boolean;
  pendingCase: string | null;
  onRun: (testCase: NegativeCase) => void;
}

/** One click per deliberately broken token; each shows what the service must answer beside what it did. */
export function NegativeCases({ history, disabled, pendingCase, onRun }: NegativeCasesProps) {
  const { t } = useTranslation();
  return (
    <CardSection title={t('logout.negative')} hint={t('logout.negativeIntro')}>
      <ul className="negative-cases">
        {NEGATIVE_CASES.map((testCase) => {
          const last = history.find((entry) => entry.testCase === testCase);
          return (
            <li key={testCase} className="negative-case">
              <button type="button" className="button" disabled={disabled} onClick={() => onRun(testCase)}>
                {pendingCase === testCase ? t('logout.sending') : t(`logout.cases.${testCase}`)}
              </button>
              <span className="negative-case__expected">{t('logout.expected', { reason: t(`logout.reasons.${testCase}`) })}</span>
              {last && <OutcomeText entry={last} />}
            </li>
          );
        })}
      </ul>
    </CardSection>
  );
}

export function OutcomeText({ entry, bare = false }: { entry: LogoutTestRecord; bare?: boolean }) {
  const { t } = useTranslation();
  const status = entry.status ?? '?';
  const actual =
    entry.accepted === undefined
      ? t(bare ? 'logout.outcomeError' : 'logout.actualError', { code: entry.errorCode ?? '?' })
      : entry.accepted
        ? t(bare ? 'logout.outcomeAccepted' : 'logout.actualAccepted', { status })
        : t(bare ? 'logout.outcomeRefused' : 'logout.actualRefused', { status });
  return (
    <span className={`outcome ${entry.asExpected ? 'outcome--ok' : 'outcome--bad'}`}>
      <span>{actual}</span>
      <strong>{entry.asExpected ? t('logout.asExpected') : t('logout.notAsExpected')}</strong>
    </span>
  );
}
