import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import { ErrorPanel } from '../../components/error-panel';
import { ViewSection } from '../../components/view-section';
import { formatNumber } from '../../i18n/format';
import { ReconcileInput } from './reconcile-input';
import { ReconcileResults } from './reconcile-results';
import { useReconcile } from './reconcile-store';
import { useReconcileJob } from './use-reconcile-job';
import './reconcile.css';

/** The Reconcile tab: the application's uid list against every user of the active profile; the orphans to a batch. */
export function ReconcileView({ profile }: { profile: ProfileView }) {
  const { t, i18n } = useTranslation();
  const { state, start, cancel } = useReconcileJob();
  const result = useReconcile((s) => s.result);
  const n = (value: number) => formatNumber(value, i18n.language);
  const shown = result && result.profileId === profile.id ? result.summary : null;
  return (
    <ViewSection id="reconcile" title={t('reconcile.title')} intro={t('reconcile.intro')}>
      <p className="callout reconcile-rule" data-testid="reconcile-rule">
        {t('reconcile.rule')}
      </p>
      <ReconcileInput busy={state.phase === 'running'} onStart={(input) => void start({ ...input, profileId: profile.id })} />
      {state.phase === 'running' ? (
        <div className="reconcile-progress" role="status" data-testid="reconcile-progress">
          <span>
            {state.progress
              ? state.progress.totalPages
                ? t('reconcile.reading', { page: n(state.progress.page), total: n(state.progress.totalPages), collected: n(state.progress.collected) })
                : t('reconcile.readingNoTotal', { page: n(state.progress.page), collected: n(state.progress.collected) })
              : t('reconcile.starting')}
          </span>
          <button type="button" className="button button--small" disabled={state.cancelling} onClick={() => void cancel()}>
            {state.cancelling ? t('reconcile.cancelling') : t('reconcile.cancel')}
          </button>
        </div>
      ) : null}
      {state.phase === 'cancelled' ? <p className="callout">{t('reconcile.cancelled')}</p> : null}
      {state.phase === 'failed' ? <ErrorPanel title={t('reconcile.failed')} error={state.error} /> : null}
      {shown ? <ReconcileResults summary={shown} /> : null}
    </ViewSection>
  );
}
