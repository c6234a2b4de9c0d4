import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RECONCILE_SETS, type ReconcileSummary } from '../../../shared/reconcile';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { saveFile } from '../../components/save-file';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { useUiStore } from '../../state/ui-store';
import { useBatchDraft } from '../batch/batch-draft-store';
import { PASTED_LIST } from '../batch/batch-preview-panel';
import { useReconcile } from './reconcile-store';
import { RECONCILE_PAGE, ReconcileTable } from './reconcile-table';

/** The three sets and the near matches: counts that choose the table, a filter, exports, and the orphans to a batch. */
export function ReconcileResults({ summary }: { summary: ReconcileSummary }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const n = (value: number) => formatNumber(value, i18n.language);
  const { counts } = summary;
  const setView = useUiStore((s) => s.setView);
  const { shownSet, filter, offset } = useReconcile();
  // How many orphans the filter keeps (the table's own query, shared): the button says the number it sends.
  const filtered = useQuery({
    queryKey: ['reconcile-rows', summary.reconcileId, 'orphans', filter, offset],
    queryFn: () => bridge['reconcile.rows']({ reconcileId: summary.reconcileId, set: 'orphans', filter, offset, limit: RECONCILE_PAGE }),
    enabled: shownSet === 'orphans' && filter !== '',
  });
  const kept = filter === '' ? counts.orphans : filtered.data?.matching;
  const setStore = useReconcile((s) => s.set);
  const [problem, setProblem] = useState<{ title: string; error: unknown } | null>(null);

  const exportAs = async (format: 'csv' | 'json') => {
    setProblem(null);
    try {
      saveFile(await bridge['reconcile.export']({ reconcileId: summary.reconcileId, format }));
    } catch (error) {
      setProblem({ title: t('reconcile.exportFailed'), error });
    }
  };
  // The orphans the filter keeps, as a list the Batch tab reads whole, under the reconciliation's reference.
  const toBatch = async () => {
    setProblem(null);
    try {
      const list = await bridge['reconcile.orphanList']({ reconcileId: summary.reconcileId, filter: shownSet === 'orphans' ? filter : '' });
      const draft = useBatchDraft.getState();
      draft.clear();
      draft.set({ file: { name: list.sourceName, text: list.text, size: list.text.length }, separator: 'none', reference: list.reference });
      setView('batch');
    } catch (error) {
      setProblem({ title: t('reconcile.toBatchFailed'), error });
    }
  };

  return (
    <section className="card reconcile-card reconcile-results" aria-labelledby="reconcile-results-title">
      <h3 id="reconcile-results-title" className="card__title">
        {t('reconcile.results.heading')}
      </h3>
      <p className="card__hint">
        {t('reconcile.results.hint', { count: summary.pages, users: n(counts.serviceUsers), uids: n(counts.applicationUids), source: summary.input.sourceName === PASTED_LIST ? t('batch.preview.pasted') : summary.input.sourceName, when: formatDateTime(summary.finishedAt, i18n.language) })}
      </p>
      <div className="reconcile-counts" role="group" aria-label={t('reconcile.results.sets')}>
        {RECONCILE_SETS.map((set) => (
          <button
            key={set}
            type="button"
            className={`reconcile-count reconcile-count--${set}`}
            aria-pressed={shownSet === set}
            data-testid={`reconcile-count-${set}`}
            onClick={() => setStore({ shownSet: set, offset: 0 })}
          >
            <span className="reconcile-count__number">{n(counts[set])}</span>
            <span className="reconcile-count__label">{t(`reconcile.sets.${set}`)}</span>
          </button>
        ))}
      </div>
      {counts.inBoth === 0 && counts.nearMatches === 0 && counts.orphans > 0 ? (
        // Every user an orphan: far more often the wrong column, file or profile than an application with no user left.
        <p className="callout callout--warning" role="note" data-testid="reconcile-nothing-in-both">
          {t('reconcile.nothingInBoth')}
        </p>
      ) : null}
      <p className="reconcile-set-hint">{t(`reconcile.setHints.${shownSet}`)}</p>
      {counts.withoutUid > 0 ? <p className="muted small">{t('reconcile.withoutUid', { count: counts.withoutUid })}</p> : null}
      <div className="reconcile-tools">
        <label className="field reconcile-filter">
          <span className="field__label">{t('reconcile.filter')}</span>
          <input className="input" type="search" value={filter} placeholder={t('reconcile.filterHint')} spellCheck={false} autoComplete="off" onChange={(event) => setStore({ filter: event.target.value, offset: 0 })} />
        </label>
        <span className="reconcile-tools__buttons">
          <button type="button" className="button button--small" onClick={() => void exportAs('csv')}>
            {t('reconcile.exportCsv')}
          </button>
          <button type="button" className="button button--small" onClick={() => void exportAs('json')}>
            {t('reconcile.exportJson')}
          </button>
        </span>
      </div>
      <ReconcileTable reconcileId={summary.reconcileId} set={shownSet} />
      {problem ? <ErrorPanel title={problem.title} error={problem.error} /> : null}
      {shownSet === 'orphans' && counts.orphans > 0 && kept !== 0 ? (
        <div className="reconcile-to-batch">
          <button type="button" className="button button--danger" disabled={kept === undefined} onClick={() => void toBatch()}>
            {filter === '' ? t('reconcile.toBatch', { count: counts.orphans }) : t('reconcile.toBatchFiltered', { count: kept ?? 0 })}
          </button>
          <p className="muted small">{t('reconcile.toBatchHint', { reference: summary.reference })}</p>
        </div>
      ) : null}
    </section>
  );
}
