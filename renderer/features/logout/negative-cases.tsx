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
  const latest = NEGATIVE_CASES.map((testCase) => history.find((entry) => entry.testCase === testCase));
  // Answered, but the body contradicts the status: its own reason, since sending it again would get the same answer.
  const saidFailed = latest.find((entry) => entry?.answer === 'says-failed');
  return (
    <CardSection title={t('logout.negative')} hint={t('logout.negativeIntro')}>
      {latest.some((entry) => entry?.verdict === 'inconclusive' && entry.answer !== 'says-failed') && <p className="negative-cases__hint">{t('logout.inconclusiveHint')}</p>}
      {saidFailed && <p className="negative-cases__hint">{t('logout.saysFailedHint', { status: saidFailed.status ?? '2xx' })}</p>}
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

const VERDICT_CLASS = { 'as-expected': 'outcome--ok', 'not-as-expected': 'outcome--bad', inconclusive: 'outcome--inconclusive' } as const;

/** What the service did with the token, and the verdict in words, in its own colour (an inconclusive test is not a failure). */
export function OutcomeText({ entry, bare = false }: { entry: LogoutTestRecord; bare?: boolean }) {
  const { t } = useTranslation();
  const status = entry.status ?? '?';
  const code = entry.errorCode ?? '?';
  const actual = ((): string => {
    switch (entry.answer) {
      case 'accepted':
        return t(bare ? 'logout.outcomeAccepted' : 'logout.actualAccepted', { status });
      case 'refused':
        return t(bare ? 'logout.outcomeRefused' : 'logout.actualRefused', { status });
      case 'says-failed':
        return t(bare ? 'logout.outcomeSaysFailed' : 'logout.actualSaysFailed', { status });
      case 'answered':
        return t(bare ? 'logout.outcomeAnswered' : 'logout.actualAnswered', { status, code });
      case 'no-answer':
        return t(bare ? 'logout.outcomeError' : 'logout.actualError', { code });
    }
  })();
  return (
    <span className={`outcome ${VERDICT_CLASS[entry.verdict]}`} data-verdict={entry.verdict}>
      <span>{actual}</span>
      <strong>{t(`logout.verdicts.${entry.verdict}`)}</strong>
    </span>
  );
}
