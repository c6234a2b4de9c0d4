import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorPanel } from '../../components/error-panel';
import { VisibleUid } from '../../components/visible-uid';
import { formatNumber } from '../../i18n/format';
import type { BatchCheckResult } from '../../../shared/batch';
import { useBatchDraft } from './batch-draft-store';
import { BatchLookalikes } from './batch-lookalikes';
import { useBatchCheck } from './use-batch-check';

/** Optional: which uids of the list exist on the service (a read-only walk of the users list, with progress and Cancel). */
/** `stale`: the list is being read again (a new preview is coming): a check now would be of the old one, so it waits. */
export function BatchCheck({ draftId, profileId, items, stale = false, onResult }: { draftId: string; profileId: string; items: number; stale?: boolean; onResult?: (result: BatchCheckResult) => void }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  const { state, check, cancel } = useBatchCheck(draftId, profileId);
  const trimmedChosen = useBatchDraft((s) => s.useTrimmedFor === draftId);
  const done = state.phase === 'done' ? state.result : undefined;
  // Told once per answer (the panel above shows the ends as sent); the callback's identity does not matter.
  const tell = useRef(onResult);
  tell.current = onResult;
  useEffect(() => {
    if (done) tell.current?.(done);
  }, [done]);
  // With the trimmed uids chosen, what exists and what will end "not found" is said of the uids as sent.
  const found = done ? (trimmedChosen && done.trimmable.whenTrimmed ? done.trimmable.whenTrimmed : done) : undefined;

  return (
    <div className="batch-check">
      {state.phase === 'checking' ? (
        <div className="batch-check__progress" role="status">
          <span>
            {state.progress
              ? state.progress.totalPages !== undefined
                ? t('batch.check.progressOf', { page: state.progress.page, total: state.progress.totalPages, users: n(state.progress.collected) })
                : t('batch.check.progress', { page: state.progress.page, users: n(state.progress.collected) })
              : t('batch.check.starting')}
          </span>
          {state.progress?.totalPages ? <progress max={state.progress.totalPages} value={state.progress.page} /> : null}
          <button type="button" className="button button--small" onClick={() => void cancel()} disabled={state.cancelling}>
            {state.cancelling ? t('batch.check.cancelling') : t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="batch-check__start">
          <button type="button" className="button button--small" onClick={() => void check()} disabled={stale}>
            {state.phase === 'done' ? t('batch.check.again') : t('batch.check.button')}
          </button>
          {/* Why it helps, not only what it does: a uid known to be missing stays "not found" after a repeated attempt. */}
          <p className="muted small batch-check__why">
            {t('batch.check.hint')} {t('batch.check.why')}
          </p>
        </div>
      )}
      {state.phase === 'cancelled' && (
        <p className="muted" role="status">
          {t('batch.check.cancelled')}
        </p>
      )}
      {state.phase === 'failed' && <ErrorPanel title={t('batch.check.failed')} error={state.error} />}
      {state.phase === 'done' && found && (
        <div className="batch-check__result" role="status">
          <p>
            {found.missing === 0
              ? t('batch.check.allExist', { count: items, formatted: n(items) })
              : `${t('batch.check.someExist', { count: found.existing, existing: n(found.existing), total: n(items) })} ${t('batch.check.someAbsent', { count: found.missing, missing: n(found.missing) })}`}{' '}
            {found !== state.result && <span className="muted small">{t('batch.check.asSentTrimmed')} </span>}
            <span className="muted small">{t('batch.check.walked', { users: n(state.result.users) })}</span>
          </p>
          {found.missingSample.length > 0 && (
            <div className="batch-check__missing">
              <h4 className="batch-ends__label">{t('batch.check.missingHeading')}</h4>
              <ul className="batch-ends__list">
                {found.missingSample.map((uid, index) => (
                  <li key={`${index}:${uid}`} className="uid-text">
                    <VisibleUid uid={uid} inline />
                  </li>
                ))}
              </ul>
              <p className="muted small">{t('batch.check.missingHint')}</p>
            </div>
          )}
          {state.result.trimmable.count > 0 && <TrimmableUids draftId={draftId} trimmable={state.result.trimmable} />}
          {state.result.lookalikes && state.result.lookalikes.count > 0 && <BatchLookalikes draftId={draftId} lookalikes={state.result.lookalikes} />}
        </div>
      )}
    </div>
  );
}

/**
 * uids pasted with spaces at an end that are not on the service while the same uid without them is: most
 * likely a paste mistake, said as one, with a one-click choice to send the trimmed form. The choice is the
 * operator's, made here; the job and the audit trail record it with each of those items.
 */
function TrimmableUids({ draftId, trimmable }: { draftId: string; trimmable: BatchCheckResult['trimmable'] }) {
  const { t, i18n } = useTranslation();
  const chosen = useBatchDraft((s) => s.useTrimmedFor === draftId);
  const setDraft = useBatchDraft((s) => s.set);
  const count = { count: trimmable.count, formatted: formatNumber(trimmable.count, i18n.language) };
  const more = trimmable.count - trimmable.sample.length;
  return (
    <section className={`callout ${chosen ? '' : 'callout--warning'} batch-trimmable`} aria-labelledby={`trimmable-${draftId}`}>
      <h4 id={`trimmable-${draftId}`} className="batch-trimmable__heading">
        <span aria-hidden="true">⚠ </span>
        {t('batch.check.trimmableHeading')}
      </h4>
      <p>{t('batch.check.trimmable', count)}</p>
      <ul className="batch-trimmable__list">
        {trimmable.sample.map((item) => (
          <li key={item.line}>
            <span className="muted small">{t('batch.check.trimmableLine', { line: formatNumber(item.line, i18n.language) })}</span> <VisibleUid uid={item.uid} inline /> <span aria-hidden="true">→</span>{' '}
            <VisibleUid uid={item.trimmed} inline />
          </li>
        ))}
      </ul>
      {more > 0 && <p className="muted small">{t('batch.check.trimmableMore', { count: more })}</p>}
      {chosen ? (
        <>
          <p role="status">{t('batch.check.trimmedChosen', count)}</p>
          <button type="button" className="button button--small" onClick={() => setDraft({ useTrimmedFor: '', typed: '' })}>
            {t('batch.check.sendAsPasted')}
          </button>
        </>
      ) : (
        // What will be sent changes: the phrase is typed again after the choice.
        <button type="button" className="button button--small button--primary" onClick={() => setDraft({ useTrimmedFor: draftId, typed: '' })}>
          {t('batch.check.useTrimmed', count)}
        </button>
      )}
    </section>
  );
}
