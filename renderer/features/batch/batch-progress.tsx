import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isBeingRun, type BatchJobLive, type BatchJobSummary } from '../../../shared/batch';
import { PrivacyDeskError } from '../../../shared/errors';
import { useBridge } from '../../bridge/bridge-context';
import { useHostContact } from '../../bridge/use-host-contact';
import { CardSection } from '../../components/card-section';
import { ErrorPanel } from '../../components/error-panel';
import { formatNumber } from '../../i18n/format';
import { setLiveState, useBatchJob } from './batch-jobs-store';
import { useBatchRun } from './batch-run-store';
import { formatDuration } from './format-duration';
import { formatSince } from './format-when';

/**
 * Step 4: the run as it goes — counts, rate, time left, its state — with Pause / Resume and Cancel.
 * Everything it says of the job comes from the one record every batch screen reads (batch-jobs-store.ts).
 */
export function BatchProgressPanel() {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const run = useBatchRun((s) => s.run);
  const setPaused = useBatchRun((s) => s.setPaused);
  const cancel = useBatchRun((s) => s.cancel);
  const dismiss = useBatchRun((s) => s.dismiss);
  const [controlError, setControlError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const contact = useHostContact();
  const lostSince = contact.state === 'lost' ? contact.since : null;
  const batchId = run.phase === 'running' ? run.batchId : null;
  const job = useBatchJob(batchId).data;
  // A followed job that no process runs any more (another process ran it, or its end went by while the host
  // was not heard): its results are shown. A run followed here otherwise ends with its own end event.
  const ended = !lostSince && job && !isBeingRun(job.state) && !(run.phase === 'running' && run.jobId && !run.eventsMissed);
  useEffect(() => {
    if (batchId && ended) useBatchRun.getState().ended(batchId);
  }, [batchId, ended]);
  if (run.phase !== 'running') return null;
  const live = job?.live;
  const jobId = run.jobId ?? live?.jobId ?? null;
  const n = (value: number) => formatNumber(value, i18n.language);

  const control = async (action: () => Promise<void>) => {
    setBusy(true);
    setControlError(null);
    try {
      await action();
    } catch (error) {
      setControlError(error);
    } finally {
      setBusy(false);
    }
  };
  const pauseOrResume = (paused: boolean) =>
    control(async () => {
      if (!jobId) return;
      const answer = await setPaused(bridge, jobId, paused);
      setLiveState(queryClient, run.batchId, answer ? 'paused' : 'running');
    });
  const cancelRun = () =>
    control(async () => {
      if (!jobId) return;
      const before = live?.state ?? 'running';
      // Every screen says Stopping from the click on, as the panel does (the run's own report follows).
      setLiveState(queryClient, run.batchId, 'stopping');
      try {
        await cancel(bridge, jobId);
      } catch (error) {
        // Refused or never sent: the run goes on as it was. Otherwise the cancel may have reached it.
        if (error instanceof PrivacyDeskError && (error.outcome === 'not-sent' || error.outcome === 'refused')) {
          setLiveState(queryClient, run.batchId, before);
          useBatchRun.getState().cancelRefused(run.batchId);
        }
        throw error;
      }
    });

  const stopping = run.cancelling || live?.state === 'stopping';
  const paused = !stopping && live?.state === 'paused';
  // The host not heard: neither command can reach the run, and nothing said of it now would be known.
  const blocked = busy || stopping || !jobId || lostSince !== null;
  return (
    <CardSection title={t('batch.progress.heading')} hint={t('batch.progress.batchId', { id: run.batchId })} className="batch-card batch-progress">
      {job && live ? (
        <ProgressFigures job={job} live={live} stopping={stopping} lostSince={lostSince} />
      ) : run.jobId ? (
        <p className="muted" role="status">{t('batch.progress.starting')}</p>
      ) : (
        // Followed from a job listed as running: its figures come only if this app runs it (not the CLI).
        <div className="batch-progress__waiting" role="status">
          <p className="muted">{t('batch.progress.waitingForEvents')}</p>
          <button type="button" className="button button--small" onClick={dismiss}>
            {t('batch.progress.stopFollowing')}
          </button>
        </div>
      )}
      {lostSince ? (
        <>
          <p className="batch-state batch-state--unknown" role="status" aria-live="polite">
            <span aria-hidden="true" className="batch-state__mark">?</span>
            {t('batch.progress.states.unknown', { time: formatSince(lostSince, i18n.language) })}
          </p>
          <p className="callout callout--warning batch-contact-lost" role="alert">
            {t('batch.progress.contactLost')}
          </p>
        </>
      ) : (
        <p className={`batch-state batch-state--${stopping ? 'stopping' : (live?.state ?? 'running')}`} role="status" aria-live="polite">
          <span aria-hidden="true" className="batch-state__mark">{stopping ? '■' : paused ? '❚❚' : live?.state === 'waiting' ? '⏳' : '▶'}</span>
          {stopping
            ? t('batch.progress.states.stopping')
            : live?.state === 'waiting'
              ? t('batch.progress.states.waiting', { seconds: n(Math.ceil(live.waitSeconds ?? 0)) })
              : paused
                ? live?.pausedSince
                  ? t('batch.progress.states.pausedSince', { time: formatSince(live.pausedSince, i18n.language) })
                  : t('batch.progress.states.paused')
                : t('batch.progress.states.running')}
        </p>
      )}
      {controlError ? <ErrorPanel title={t('batch.progress.controlFailed')} error={controlError} /> : null}
      <div className="batch-progress__actions">
        {paused ? (
          <button type="button" className="button button--primary" disabled={blocked} onClick={() => void pauseOrResume(false)}>
            {t('batch.progress.resume')}
          </button>
        ) : (
          <button type="button" className="button" disabled={blocked} onClick={() => void pauseOrResume(true)}>
            {t('batch.progress.pause')}
          </button>
        )}
        <button type="button" className="button button--danger-ghost" disabled={blocked} onClick={() => void cancelRun()} aria-describedby="batch-cancel-hint">
          {stopping ? t('batch.progress.stopping') : t('batch.progress.cancel')}
        </button>
        <span id="batch-cancel-hint" className="muted small">
          {t('batch.progress.cancelHint')}
        </span>
      </div>
    </CardSection>
  );
}

/**
 * The figures of a run; paused or stopping, no rate and no time left (nothing more is being sent, so they would
 * say nothing true). The host not heard: the counts as last reported, said to be so, and nothing about now.
 */
function ProgressFigures({ job, live, stopping, lostSince }: { job: BatchJobSummary; live: BatchJobLive; stopping: boolean; lostSince: string | null }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const { counts, total } = job;
  const finished = total - counts.unfinished;
  const rate = formatNumber(Math.round(live.ratePerSecond * 10) / 10, i18n.language);
  const known = lostSince === null;
  const sending = known && !stopping && live.state !== 'paused' && live.state !== 'stopping';
  return (
    <>
      <div className="batch-bar">
        <progress className="batch-bar__bar" max={Math.max(total, 1)} value={finished} aria-label={t('batch.progress.barLabel')} />
        <span className="batch-bar__text">{t('batch.progress.finishedOf', { finished: n(finished), total: n(total) })}</span>
      </div>
      {lostSince && <p className="muted small batch-figures__as-of">{t('batch.progress.lastReported', { time: formatSince(lostSince, i18n.language) })}</p>}
      <dl className="batch-figures">
        <Figure label={t('batch.progress.done')} value={n(counts.done + counts.doneBeforeInterruption)} tone="done" />
        <Figure label={t('batch.progress.notFound')} value={n(counts.notFound)} tone="not-found" />
        <Figure label={t('batch.progress.failed')} value={n(counts.failed)} tone={counts.failed > 0 ? 'failed' : undefined} />
        <Figure label={t('batch.progress.remaining')} value={n(counts.unfinished)} />
        {known && <Figure label={t('batch.progress.inFlight')} value={n(live.inFlight)} />}
        {sending && <Figure label={t('batch.progress.rate')} value={t('batch.progress.rateValue', { rate })} />}
        {sending && <Figure label={t('batch.progress.timeLeft')} value={live.secondsLeft === undefined ? t('batch.progress.estimating') : formatDuration(live.secondsLeft, t)} />}
      </dl>
    </>
  );
}

function Figure({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <div className={`batch-figure ${tone ? `batch-figure--${tone}` : ''}`}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
