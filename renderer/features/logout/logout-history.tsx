import { useTranslation } from 'react-i18next';
import { EmptyValue } from '../../components/empty-value';
import { VisibleUid } from '../../components/visible-uid';
import { formatTime } from '../../i18n/format';
import type { LogoutTestRecord } from './logout-store';
import { OutcomeText } from './negative-cases';

export function LogoutHistory({ history }: { history: LogoutTestRecord[] }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card" aria-labelledby="logout-history-title">
      <h3 id="logout-history-title" className="card__title">
        {t('logout.history')}
      </h3>
      {history.length === 0 ? (
        <p className="muted">{t('logout.historyEmpty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table--compact">
            <thead>
              <tr>
                <th scope="col">{t('logout.historyTime')}</th>
                <th scope="col">{t('users.uid')}</th>
                <th scope="col">{t('logout.historyCase')}</th>
                <th scope="col">{t('logout.historyStatus')}</th>
                <th scope="col">{t('logout.historyExpected')}</th>
                <th scope="col">{t('logout.historyActual')}</th>
              </tr>
            </thead>
            <tbody>
              {history.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at}>{formatTime(new Date(entry.at), i18n.language)}</time>
                  </td>
                  <td>
                    <VisibleUid uid={entry.uid} inline />
                  </td>
                  <td>{t(`logout.cases.${entry.testCase}`)}</td>
                  <td>{entry.status === undefined || entry.status === null ? <EmptyValue /> : <span className="mono">{entry.status}</span>}</td>
                  <td>{entry.testCase === 'valid' ? t('logout.expectAccepted') : t('logout.expectRefused')}</td>
                  <td>
                    <OutcomeText entry={entry} bare />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
