import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestView } from '../../../shared/requests';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';
import { ViewSection } from '../../components/view-section';
import { formatDateTime } from '../../i18n/format';
import { ClockLabel } from './clock-label';
import { RegisterSettingsPanel } from './register-settings-panel';
import { formatDay } from './format-day';
import { useRequestsNav } from './request-nav-store';
import { RequestsFilters, toRequestFilter, type RequestsFilterValues } from './requests-filters';
import { useRequestList } from './use-requests';

/** The register's requests, soonest deadline first (the core's order), each with its days left. */
export function RequestsList() {
  const { t } = useTranslation();
  const go = useRequestsNav((s) => s.go);
  const [filters, setFilters] = useState<RequestsFilterValues>({ status: 'open', profileId: '', text: '' });
  const list = useRequestList(toRequestFilter(filters));
  const [settingsOpen, setSettingsOpen] = useState(false);
  return (
    <ViewSection
      id="requests"
      title={t('requests.title')}
      intro={t('requests.intro')}
      actions={
        <span className="request-decisions__buttons">
          <button type="button" className="button" aria-expanded={settingsOpen} onClick={() => setSettingsOpen(!settingsOpen)}>
            {t('requests.settings.open')}
          </button>
          <button type="button" className="button button--primary" onClick={() => go({ kind: 'new' })}>
            {t('requests.new')}
          </button>
        </span>
      }
    >
      {settingsOpen ? <RegisterSettingsPanel onDone={() => setSettingsOpen(false)} /> : null}
      <RequestsFilters values={filters} onChange={setFilters} />
      {list.isError ? (
        <ErrorPanel title={t('requests.loadFailed')} error={list.error} onRetry={() => void list.refetch()} retrying={list.isFetching} />
      ) : !list.data ? (
        <p className="muted">{t('common.loading')}</p>
      ) : list.data.length === 0 ? (
        <p className="empty-state__body">{filters.status === 'open' && !filters.text && !filters.profileId ? t('requests.noneOpen') : t('requests.noneMatch')}</p>
      ) : (
        <RequestsTable requests={list.data} onOpen={(id) => go({ kind: 'request', id })} />
      )}
    </ViewSection>
  );
}

function RequestsTable({ requests, onOpen }: { requests: RequestView[]; onOpen: (id: string) => void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="table-scroll">
      <table className="table requests-table">
        <thead>
          <tr>
            <th scope="col">{t('requests.columns.id')}</th>
            <th scope="col">{t('requests.columns.daysLeft')}</th>
            <th scope="col">{t('requests.columns.deadline')}</th>
            <th scope="col">{t('requests.columns.status')}</th>
            <th scope="col">{t('requests.columns.concerns')}</th>
            <th scope="col">{t('requests.columns.received')}</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr key={request.id} className={`requests-table__row requests-table__row--${request.clock.state}`} data-testid="request-row">
              <td>
                <button type="button" className="link-button mono" onClick={() => onOpen(request.id)}>
                  {request.id}
                </button>
              </td>
              <td>
                <ClockLabel clock={request.clock} />
              </td>
              <td>{formatDay(request.clock.deadline, i18n.language)}</td>
              <td>{t(`requests.status.${request.status}`)}</td>
              <td className="requests-table__concerns">
                {request.subjects[0] ? <VisibleUid uid={request.subjects[0].uid} inline /> : null}
                {request.subjects.length > 1 ? <span className="muted"> {t('requests.moreUids', { count: request.subjects.length - 1 })}</span> : null}
              </td>
              <td>{formatDateTime(request.receivedAt, i18n.language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
