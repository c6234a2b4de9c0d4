import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RequestActsLine } from '../../../shared/request-acts';
import type { RequestView } from '../../../shared/requests';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';
import { formatDateTime } from '../../i18n/format';
import { useApplyChange, useRequestActs } from './use-requests';

interface TimelineItem {
  key: string;
  at: string;
  kind: string;
  title: ReactNode;
  detail?: ReactNode;
}

/** What happened to the request, oldest first: received, its changes, the acts linked to it with their outcomes. */
export function RequestTimeline({ view }: { view: RequestView }) {
  const { t, i18n } = useTranslation();
  const acts = useRequestActs(view.id);
  const items: TimelineItem[] = [{ key: 'received', at: view.receivedAt, kind: 'received', title: t('requests.timeline.received', { channel: t(`requests.channels.${view.channel}`) }) }];
  for (const entry of view.history) {
    // Links show as the acts themselves, with their outcomes, below.
    if (entry.change === 'link') continue;
    const detail =
      entry.change === 'extend' && view.extension
        ? t('requests.page.extended', { reason: view.extension.reason, told: formatDateTime(view.extension.personToldAt, i18n.language) })
        : entry.change === 'refuse'
          ? view.refusalGround
          : undefined;
    items.push({ key: `event-${entry.event}`, at: entry.at, kind: entry.change, title: t(`requests.timeline.${entry.change}`), detail });
  }
  for (const line of acts.data?.lines ?? []) items.push(actItem(line, t));
  items.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <section className="card request-timeline" aria-labelledby="request-timeline-title">
      <h3 id="request-timeline-title" className="card__title">
        {t('requests.timeline.title')}
      </h3>
      {acts.isError ? <ErrorPanel title={t('requests.timeline.actsFailed')} error={acts.error} onRetry={() => void acts.refetch()} retrying={acts.isFetching} /> : null}
      {acts.data && acts.data.unlinkedActIds.length > 0 ? <UnlinkedActs id={view.id} actIds={acts.data.unlinkedActIds} /> : null}
      <ol className="timeline" data-testid="request-timeline">
        {items.map((item) => (
          <li key={item.key} className={`timeline__item timeline__item--${item.kind}`}>
            <time className="timeline__at" dateTime={item.at}>
              {formatDateTime(item.at, i18n.language)}
            </time>
            <span className="timeline__title">{item.title}</span>
            {item.detail ? <span className="timeline__detail">{item.detail}</span> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Erasures under the request's id not linked to it (the CLI without --request, or a link that failed): linked on request. */
function UnlinkedActs({ id, actIds }: { id: string; actIds: string[] }) {
  const { t } = useTranslation();
  const apply = useApplyChange(id);
  return (
    <div className="callout callout--warning" data-testid="unlinked-acts">
      <p>{t('requests.timeline.unlinked', { count: actIds.length })}</p>
      <button type="button" className="button button--small" disabled={apply.isPending} onClick={() => apply.mutate({ kind: 'link', actIds, batchJobIds: [] })}>
        {t('requests.timeline.linkThem')}
      </button>
      {apply.isError ? <ErrorPanel title={t('requests.timeline.linkFailed')} error={apply.error} /> : null}
    </div>
  );
}

function actItem(line: RequestActsLine, t: TFunction): TimelineItem {
  if (line.kind === 'batch') {
    const summary = line.summary;
    return {
      key: `batch-${line.batchId}`,
      at: line.at ?? new Date().toISOString(),
      kind: 'batch',
      title: t('requests.timeline.batch', { id: line.batchId }),
      detail: summary ? t('requests.timeline.batchSummary', { done: summary.done + summary.doneBeforeInterruption, total: summary.total, notFound: summary.notFound, failed: summary.failed }) : t('requests.timeline.batchRunning'),
    };
  }
  return {
    key: `act-${line.actId}`,
    at: line.at,
    kind: `act-${line.outcome}`,
    title: (
      <>
        {t(`requests.timeline.act.${line.action}`)} <VisibleUid uid={line.uid} inline />
      </>
    ),
    detail: (
      <span data-outcome={line.outcome}>
        {t(`requests.outcome.${line.outcome}`)}
        {line.verification ? ` · ${t(`requests.verification.${line.verification}`)}` : ''}
      </span>
    ),
  };
}
