import { useTranslation } from 'react-i18next';
import { isBeingRun, type BatchCounts, type BatchJobDamage, type BatchJobSummary } from '../../../shared/batch';
import { ErrorPanel, ErrorQuote } from '../../components/error-panel';
import { wordError } from '../../i18n/word-message';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useExportResults } from './batch-results';
import { formatShortDateTime, formatSince } from './format-when';
import { useHostContact } from '../../bridge/use-host-contact';
import { JobHolder } from './batch-holder';

interface OffersProps {
  jobs: BatchJobSummary[];
  onResume: (job: BatchJobSummary) => void;
  onFollow: (job: BatchJobSummary) => void;
  /** A run is followed here now: no other can start. */
  busy: boolean;
}

/** On opening the screen: every unfinished job is offered for resuming; a job running in this app can be followed. */
export function ResumeOffers({ jobs, onResume, onFollow, busy }: OffersProps) {
  const { t, i18n } = useTranslation();
  const unknown = useHostContact().state === 'lost';
  const n = (value: number) => formatNumber(value, i18n.language);
  const offered = jobs.filter((job) => job.state !== 'finished');
  if (offered.length === 0) return null;
  return (
    <ul className="batch-offers" aria-label={t('batch.jobs.offersLabel')}>
      {offered.map((job) => (
        <li key={job.batchId} className={`batch-offer batch-offer--${job.state}`}>
          <span aria-hidden="true" className="batch-offer__mark">{job.state === 'paused' ? '⏸' : job.state === 'stopping' ? '■' : isBeingRun(job.state) ? '▶' : '⚠'}</span>
          <span className="batch-offer__text">
            <strong>{t('batch.jobs.offer', { time: formatDateTime(job.createdAt, i18n.language), unfinished: n(job.counts.unfinished), total: n(job.total) })}</strong>
            <span className="muted small block">
              {t(`batch.operations.${job.action}`)} · {job.profileName} · {job.source}
              {isBeingRun(job.state) ? ` · ${unknown ? t('batch.jobs.stateUnknown') : t(`batch.jobs.states.${job.state}`)}` : ''}
            </span>
            {!unknown && <JobHolder job={job} />}
          </span>
          {job.state === 'unfinished' ? (
            <button type="button" className="button button--primary button--small" onClick={() => onResume(job)} disabled={busy}>
              {t('batch.jobs.resume')}
            </button>
          ) : (
            <button type="button" className="button button--small" onClick={() => onFollow(job)} disabled={busy}>
              {t('batch.jobs.follow')}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Every batch on this computer, newest first, with its counts and its results (shown when no run is on screen). */
export function PastJobs({ jobs, onShow, busy }: { jobs: BatchJobSummary[]; onShow: (job: BatchJobSummary) => void; busy: boolean }) {
  const { t, i18n } = useTranslation();
  const exportResults = useExportResults();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <section className="batch-jobs" aria-labelledby="batch-jobs-title">
      <h3 id="batch-jobs-title" className="batch-jobs__title">{t('batch.jobs.heading')}</h3>
      {jobs.length === 0 ? (
        <p className="empty-inline">{t('batch.jobs.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table batch-jobs__table" aria-labelledby="batch-jobs-title">
            <thead>
              <tr>
                <th scope="col">{t('batch.jobs.columns.created')}</th>
                <th scope="col">{t('batch.jobs.columns.operation')}</th>
                <th scope="col">{t('batch.jobs.columns.profile')}</th>
                <th scope="col" className="numeric">{t('batch.jobs.columns.total')}</th>
                <th scope="col">{t('batch.jobs.columns.counts')}</th>
                <th scope="col">{t('batch.jobs.columns.state')}</th>
                <th scope="col"><span className="visually-hidden">{t('batch.jobs.columns.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.batchId}>
                  <td className="batch-jobs__started">
                    <time dateTime={job.createdAt}>{formatShortDateTime(job.createdAt, i18n.language)}</time>
                    <span className="muted small block mono">{job.batchId}</span>
                  </td>
                  <td>
                    {t(`batch.operations.${job.action}`)}
                    {job.reference && <span className="muted small block">{job.reference}</span>}
                  </td>
                  <td>
                    {job.profileName}
                    <span className="muted small block">{job.baseUrl}</span>
                  </td>
                  <td className="numeric">{n(job.total)}</td>
                  <td className="small">
                    <JobCounts counts={job.counts} />
                  </td>
                  <td>
                    <JobState job={job} />
                  </td>
                  <td className="batch-jobs__actions">
                    <button type="button" className="button button--small" onClick={() => onShow(job)} disabled={busy || isBeingRun(job.state)} aria-label={t('batch.jobs.showFor', { time: formatDateTime(job.createdAt, i18n.language) })}>
                      {t('batch.jobs.show')}
                    </button>
                    <button type="button" className="button button--small" onClick={() => exportResults.mutate(job.batchId)} disabled={exportResults.isPending} aria-label={t('batch.jobs.exportFor', { time: formatDateTime(job.createdAt, i18n.language) })}>
                      {t('batch.jobs.export')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {exportResults.isError && <ErrorPanel title={t('batch.results.exportFailed')} error={exportResults.error} />}
    </section>
  );
}

/** Done and failed always, not found and unfinished when there are some: short enough for one line at 1024 px. */
function JobCounts({ counts }: { counts: BatchCounts }) {
  const { t, i18n } = useTranslation();
  const parts: Array<['done' | 'notFound' | 'failed' | 'unfinished', number]> = [
    ['done', counts.done + counts.doneBeforeInterruption],
    ['notFound', counts.notFound],
    ['failed', counts.failed],
    ['unfinished', counts.unfinished],
  ];
  return (
    <>
      {parts
        .filter(([part, count]) => count > 0 || part === 'done' || part === 'failed')
        .map(([part, count]) => t(`batch.jobs.countParts.${part}`, { count, formatted: formatNumber(count, i18n.language) }))
        .join(' · ')}
    </>
  );
}

/** The job's state as its run says it (paused, waiting…) when this app runs it: the same word as the progress panel's; paused elsewhere too. */
function JobState({ job }: { job: BatchJobSummary }) {
  const { t, i18n } = useTranslation();
  const contact = useHostContact();
  const state = job.live?.state;
  // The host not heard: what a job being run was last said to be is no longer known (a finished one stays finished).
  if (contact.state === 'lost' && isBeingRun(job.state)) {
    return (
      <>
        <span className="tag batch-job-state--unknown">{t('batch.jobs.unknown')}</span>
        <span className="muted small block">{t('batch.jobs.unknownSince', { time: formatSince(contact.since, i18n.language) })}</span>
      </>
    );
  }
  return (
    <>
      <span className={`tag batch-job-state--${state ?? job.state}`}>{state ? t(`batch.jobs.runStates.${state}`) : t(`batch.jobs.states.${job.state}`)}</span>
      {isBeingRun(job.state) && !job.live && <span className="muted small block">{t('batch.jobs.elsewhere')}</span>}
      <JobHolder job={job} />
    </>
  );
}

/** Jobs whose files cannot be used: each says which file, why, that nothing more will be sent from it and what to do; none is offered for resuming. */
export function DamagedJobs({ jobs }: { jobs: BatchJobDamage[] }) {
  const { t, i18n } = useTranslation();
  if (jobs.length === 0) return null;
  return (
    <section className="batch-damaged" aria-labelledby="batch-damaged-title">
      <h3 id="batch-damaged-title" className="batch-jobs__title">{t('batch.jobs.damaged.heading')}</h3>
      <ul className="batch-damaged__list">
        {jobs.map((job) => (
          <li key={job.batchId} className="batch-damaged__job">
            <strong>
              {job.plan
                ? t('batch.jobs.damaged.titleWithPlan', { time: formatDateTime(job.createdAt, i18n.language), operation: t(`batch.operations.${job.plan.action}`), profile: job.plan.profileName, source: job.plan.source })
                : t('batch.jobs.damaged.title', { time: formatDateTime(job.createdAt, i18n.language) })}
            </strong>
            <span className="muted small block mono">{job.batchId}</span>
            <p className="batch-damaged__text">{wordError(i18n, { code: 'INTERNAL', text: job.text })}</p>
            {job.quote && <ErrorQuote quote={job.quote} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Rendered while the list loads or when it fails: the rest of the screen works without it. */
export function JobsError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return <ErrorPanel title={t('batch.jobs.loadFailed')} error={error} onRetry={onRetry} />;
}
