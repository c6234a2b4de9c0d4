import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CLOSED_STATUSES, type RequestView } from '../../../shared/requests';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime } from '../../i18n/format';
import { ClockLabel } from './clock-label';
import { formatDay } from './format-day';
import { RequestAnswerPack } from './request-answer-pack';
import { RequestDecisions } from './request-decisions';
import { useRequestsNav } from './request-nav-store';
import { RequestSubjects } from './request-subjects';
import { RequestTimeline } from './request-timeline';
import { useRequest } from './use-requests';

/** One request: what was asked and when, its clock, who it concerns with the acts on them, its timeline and decisions. */
export function RequestPage({ id }: { id: string }) {
  const { t } = useTranslation();
  const go = useRequestsNav((s) => s.go);
  // The requester's contact is read (decrypted by the core) only while the DPO asks to see it.
  const [showContact, setShowContact] = useState(false);
  const request = useRequest(id, showContact);
  const back = (
    <button type="button" className="link-button" onClick={() => go({ kind: 'list' })}>
      ← {t('requests.backToList')}
    </button>
  );
  if (request.isError) {
    return (
      <section className="view request-page">
        {back}
        <ErrorPanel title={t('requests.page.loadFailed', { id })} error={request.error} onRetry={() => void request.refetch()} retrying={request.isFetching} />
      </section>
    );
  }
  if (!request.data) return <p className="muted">{t('common.loading')}</p>;
  const view = request.data;
  const open = !CLOSED_STATUSES.includes(view.status);
  return (
    <section className="view request-page" aria-labelledby="request-title">
      {back}
      <header className="view__header request-page__header">
        <div>
          <h2 id="request-title" className="request-page__id">
            {view.id}
          </h2>
          <p className="view__intro">
            <span>{t(`requests.status.${view.status}`)}</span>
            <span aria-hidden="true">·</span>
            <ClockLabel clock={view.clock} withDeadline />
          </p>
        </div>
      </header>
      <div className="request-page__grid">
        <div className="request-page__main">
          <RequestFacts view={view} showContact={showContact} onShowContact={setShowContact} />
          <RequestSubjects view={view} open={open} />
          {open ? <RequestDecisions view={view} /> : <RequestAnswerPack view={view} />}
        </div>
        <RequestTimeline view={view} />
      </div>
    </section>
  );
}

function RequestFacts({ view, showContact, onShowContact }: { view: RequestView; showContact: boolean; onShowContact: (show: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const { requester } = view;
  return (
    <section className="card request-facts" aria-labelledby="request-facts-title">
      <h3 id="request-facts-title" className="card__title">
        {t('requests.page.facts')}
      </h3>
      <dl className="facts">
        <Fact term={t('requests.fields.received')}>{formatDateTime(view.receivedAt, i18n.language)}</Fact>
        <Fact term={t('requests.fields.channel')}>{t(`requests.channels.${view.channel}`)}</Fact>
        <Fact term={t('requests.fields.actions')}>{view.actions.map((action) => t(`requests.actions.${action}`)).join(', ')}</Fact>
        <Fact term={t('requests.fields.deadline')}>
          {formatDay(view.clock.deadline, i18n.language)}
          {view.clock.pausedDays > 0 ? ` (${t('requests.page.pausedDays', { count: view.clock.pausedDays })})` : ''}
        </Fact>
        {view.extension ? <Fact term={t('requests.fields.extension')}>{t('requests.page.extended', { reason: view.extension.reason, told: formatDateTime(view.extension.personToldAt, i18n.language) })}</Fact> : null}
        {view.refusalGround ? <Fact term={t('requests.fields.refusalGround')}>{view.refusalGround}</Fact> : null}
        <Fact term={t('requests.fields.requester')}>
          <RequesterText requester={requester} />{' '}
          {requester.state === 'hidden' || requester.state === 'shown' ? (
            <button type="button" className="link-button" aria-pressed={showContact} onClick={() => onShowContact(!showContact)}>
              {showContact ? t('requests.page.hideContact') : t('requests.page.showContact')}
            </button>
          ) : null}
        </Fact>
      </dl>
      {view.notes ? (
        <details className="request-facts__notes">
          <summary>{t('requests.fields.notes')}</summary>
          <p className="request-facts__notes-text">{view.notes}</p>
        </details>
      ) : null}
    </section>
  );
}

/** One term and its value, grouped as .facts lays them out. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function RequesterText({ requester }: { requester: RequestView['requester'] }) {
  const { t } = useTranslation();
  if (requester.state === 'shown') return <span data-testid="requester-contact">{[requester.name, requester.contact].filter(Boolean).join(' · ') || t('requests.requester.none')}</span>;
  return <span className="muted">{t(`requests.requester.${requester.state}`)}</span>;
}
