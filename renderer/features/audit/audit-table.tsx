import { measureElement as measuredSize, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useDeferredValue, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyValue } from '../../components/empty-value';
import { MiddleClippedText } from '../../components/middle-clipped-text';
import { focusableWhileItScrolls } from '../../components/scroll-box';
import { VisibleUid } from '../../components/visible-uid';
import { visibleUidText } from '../../../shared/invisible-characters';
import { actVouching, lineVouching, type AuditEntry, type ChainVerdict, type LineVouching } from '../../../shared/audit';
import { visibleReferenceText } from '../../../shared/reference';
import { formatDate, formatDateTime, formatTime } from '../../i18n/format';

const formatTimeOfDay = (at: string, language: string) => (Number.isNaN(Date.parse(at)) ? '' : formatTime(new Date(at), language));
import type { ActOutcome, AuditActRow, AuditRow, CorruptRow } from './group-acts';
import { wordMessage } from '../../i18n/word-message';

/**
 * A row's least height, and the estimate for every row not yet drawn: 50,000 of them scroll without measuring
 * any. A drawn row is measured and grows with its wrapped text (a long outcome, a note under it), never cut.
 */
export const AUDIT_ROW_HEIGHT = 60;
/** Rows from the end at which the next page is asked for (onNearEnd): about two screens ahead. */
const NEAR_END_ROWS = 20;

// A mark beside each word so the outcome never rests on colour alone.
const OUTCOME_MARK: Record<ActOutcome, string> = { attempted: '…', done: '✓', refused: '✗', 'not-sent': '○', unknown: '⚠', unrecorded: '⚠', summary: '∑', acknowledged: '✎', 'not-found': '○' };
// A row the chain does not vouch for never wears a ✓: what it says may not be what happened.
const UNVOUCHED_MARK = '⚠';
const ROW_TONE: Partial<Record<ActOutcome, string>> = { attempted: 'is-attempted', unknown: 'is-unknown', unrecorded: 'is-unknown' };

const COLUMNS = ['time', 'operation', 'uid', 'reference', 'outcome', 'status', 'requestId', 'profile', 'via', 'actions'] as const;

/**
 * The audit trail as an ARIA table whose body is virtualised: only the rows in
 * view (and a few either side) are in the page, the header row stays on top,
 * and aria-rowcount / aria-rowindex tell assistive technology where each row sits.
 */
export function AuditTable({ rows, verdict, renderActions, onNearEnd }: { rows: readonly AuditRow[]; verdict?: ChainVerdict | undefined; renderActions?: (row: AuditActRow) => ReactNode; onNearEnd?: () => void }) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => AUDIT_ROW_HEIGHT,
    overscan: 5,
    getItemKey: (index) => rows[index]!.key,
    // Where nothing is laid out (no height to measure), a row keeps the estimate.
    measureElement: (element, entry, instance) => measuredSize(element, entry, instance) || AUDIT_ROW_HEIGHT,
  });
  const items = virtualizer.getVirtualItems();
  // A trail read a page at a time (team mode): the next page is asked for as the last rows come into view.
  const lastShown = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (onNearEnd && rows.length > 0 && lastShown >= rows.length - NEAR_END_ROWS) onNearEnd();
  }, [onNearEnd, lastShown, rows.length]);
  // After a jump (a scroll, a filter) the rows follow a beat behind, drawn in a transition React slices and can
  // interrupt, so crossing 50,000 entries never holds the page in one long task; the first window is drawn at once.
  // Rows and items go together, so an index never meets another list.
  const shown = useMemo(() => ({ rows, items }), [rows, items]);
  const deferred = useDeferredValue(shown);
  const drawn = deferred.items.length === 0 ? shown : deferred;

  return (
    <div className="audit-grid">
      {/* The table is its own scroll box, focusable so the keyboard scrolls it; nothing stands between it and its rows. */}
      <div ref={scrollRef} role="table" aria-label={t('audit.tableLabel')} aria-rowcount={rows.length + 1} className="audit-grid__scroll" tabIndex={0}>
        <div role="rowgroup" className="audit-grid__head">
          <div role="row" aria-rowindex={1} className="audit-grid__row audit-grid__row--head">
            {COLUMNS.map((column) => (
              <div key={column} role="columnheader" className={`audit-grid__cell audit-grid__cell--${column}`} title={t(`audit.columns.${column}`)}>
                {column === 'actions' ? <span className="visually-hidden">{t('audit.columns.actions')}</span> : t(`audit.columns.${column}`)}
              </div>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="audit-grid__body" style={{ height: virtualizer.getTotalSize() }}>
          {drawn.items.map((item) => (
            <AuditGridRow key={item.key} row={drawn.rows[item.index]!} index={item.index} start={item.start} verdict={verdict} measure={virtualizer.measureElement} renderActions={renderActions} />
          ))}
        </div>
      </div>
    </div>
  );
}

interface AuditGridRowProps {
  row: AuditRow;
  index: number;
  start: number;
  verdict: ChainVerdict | undefined;
  measure: (element: HTMLElement | null) => void;
  renderActions: ((row: AuditActRow) => ReactNode) | undefined;
}

/** One row, drawn again only when it moves or changes: a measured neighbour shifting it costs a transform. */
const AuditGridRow = memo(function AuditGridRow({ row, index, start, verdict, measure, renderActions }: AuditGridRowProps) {
  const vouching = row.kind === 'act' && verdict ? actVouching(verdict, row.lines) : 'vouched';
  return (
    <div
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      data-line={row.line}
      data-vouching={vouching}
      className={`audit-grid__row ${row.kind === 'corrupt' ? 'is-corrupt' : `${ROW_TONE[row.outcome] ?? ''} ${row.test ? 'is-test' : ''} ${vouching === 'vouched' ? '' : 'is-unvouched'}`}`}
      style={{ minHeight: AUDIT_ROW_HEIGHT, transform: `translateY(${start}px)` }}
    >
      {row.kind === 'corrupt' ? <CorruptCells row={row} /> : <ActCells row={row} actions={renderActions?.(row)} unvouched={verdict && vouching !== 'vouched' ? { vouching, verdict } : undefined} />}
    </div>
  );
});

function CorruptCells({ row }: { row: CorruptRow }) {
  const { t, i18n } = useTranslation();
  // Text only: whatever the line holds is never read as HTML.
  return (
    <div role="cell" className="audit-grid__cell audit-grid__cell--corrupt" title={row.excerpt}>
      <span aria-hidden="true" className="corrupt-mark">⚠</span>
      <strong>{t('audit.corruptRow', { line: row.line })}</strong>
      <span className="corrupt-problem">{(row.problemText && wordMessage(i18n, row.problemText)) ?? row.problem}</span>
      {row.excerpt && <code className="corrupt-excerpt">{row.excerpt}</code>}
    </div>
  );
}

function ActCells({ row, actions, unvouched }: { row: AuditActRow; actions: ReactNode; unvouched: { vouching: Exclude<LineVouching, 'vouched'>; verdict: ChainVerdict } | undefined }) {
  const { t, i18n } = useTranslation();
  const { entry } = row;
  // A reference recorded before the reference rule may hold controls or bidi overrides: drawn as marks, never obeyed.
  const reference = entry.reference ? visibleReferenceText(entry.reference) : undefined;
  return (
    <>
      <div role="cell" className="audit-grid__cell audit-grid__cell--time">
        <time dateTime={row.at} title={formatDateTime(row.at, i18n.language)}>
          {formatDate(row.at, i18n.language)}
          <span className="muted small block">
            {formatTimeOfDay(row.at, i18n.language)} · {t('audit.lineNumber', { line: row.line })}
          </span>
        </time>
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--operation" title={row.test ? t('audit.testHint') : row.steps.map((step) => t(`audit.actions.${step.operation}`)).join(' → ')}>
        {t(`audit.actions.${row.steps.at(-1)?.operation ?? entry.action}`)}
        {row.steps.length > 1 && <span className="muted small block">{t('audit.afterSteps', { steps: row.steps.slice(0, -1).map((step) => t(`audit.actions.${step.operation}`)).join(', ') })}</span>}
        {row.test && (
          <span className="test-tag">
            {t('audit.testTag', { name: t(`audit.testCases.${row.test.case}`, { defaultValue: row.test.case }) })}
          </span>
        )}
      </div>
      {/* Longer than its cell, the uid scrolls in it (never cut), and the cell takes keyboard focus to scroll it. */}
      <div ref={focusableWhileItScrolls} role="cell" className="audit-grid__cell audit-grid__cell--uid mono" title={visibleUidText(entry.uid)}>
        <VisibleUid uid={entry.uid} inline className="uid-inline--nowrap" />
        {entry.pastedUid !== undefined && (
          <span className="muted small block">
            {t('batch.results.pastedAs')} <VisibleUid uid={entry.pastedUid} inline className="uid-inline--nowrap" /> · {t('batch.results.trimmedByChoice')}
          </span>
        )}
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--reference" title={reference}>
        {reference ? <MiddleClippedText text={reference} /> : <EmptyValue />}
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--outcome">
        <span className={`outcome-tag outcome-tag--${row.outcome === 'unrecorded' ? 'unknown' : row.outcome}`}>
          <span aria-hidden="true">{unvouched ? UNVOUCHED_MARK : OUTCOME_MARK[row.outcome]} </span>
          {t(`audit.outcomes.${row.outcome}`)}
        </span>
        {unvouched && <UnvouchedNote row={row} {...unvouched} />}
        <ActDetail row={row} />
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--status numeric">
        {entry.status === undefined ? <EmptyValue /> : <span className="mono">{entry.status}</span>}
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--requestId" title={entry.requestId}>
        {entry.requestId ? <span className="mono small">{entry.requestId}</span> : <EmptyValue />}
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--profile" title={entry.baseUrl}>
        {/* An acknowledgement concerns the trail, not a profile. */}
        {entry.profileName || entry.baseUrl ? (
          <>
            {entry.profileName}
            <span className="muted small block">{entry.baseUrl}</span>
          </>
        ) : (
          <EmptyValue />
        )}
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--via">
        {t(`audit.vias.${entry.via}`, { defaultValue: entry.via })}
        {entry.operator && <span className="muted small block">{entry.operator}</span>}
        <TeamWriter entry={entry} />
      </div>
      <div role="cell" className="audit-grid__cell audit-grid__cell--actions">
        {actions}
      </div>
    </>
  );
}

/** Team mode: the desktop and the database role the entry was written from, beside its operator; nothing when absent. */
function TeamWriter({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  if (entry.desktop === undefined && entry.dbRole === undefined) return null;
  const title = t('teamAudit.whoLabel', { operator: entry.operator ?? '?', desktop: entry.desktop ?? '?', role: entry.dbRole ?? '?' });
  return (
    <span className="audit-grid__writer muted small block" data-testid="audit-team-writer" title={title} style={{ overflowWrap: 'anywhere' }}>
      {entry.desktop !== undefined && <span className="block">{t('teamAudit.onDesktop', { desktop: entry.desktop })}</span>}
      {entry.dbRole !== undefined && <span className="block">{t('teamAudit.dbRole', { role: entry.dbRole })}</span>}
    </span>
  );
}

/** Why nothing vouches for this row: its lines outside the chain, the break among its entries, or a break before it. */
function UnvouchedNote({ row, vouching, verdict }: { row: AuditActRow; vouching: Exclude<LineVouching, 'vouched'>; verdict: ChainVerdict }) {
  const { t } = useTranslation();
  const breakLine = verdict.ok ? 0 : (verdict.unvouched?.from ?? verdict.line);
  const outside = row.lines.filter((line) => lineVouching(verdict, line) === 'outside-chain');
  const first = Math.min(...outside);
  const last = Math.max(...outside);
  const why =
    vouching === 'outside-chain'
      ? t('audit.unvouched.outside-chain', { lines: first === last ? t('audit.unvouched.lineOne', { line: first }) : t('audit.unvouched.lineRange', { from: first, to: last }) })
      : t(`audit.unvouched.${vouching}`, { line: breakLine });
  return (
    <span className="audit-grid__unvouched small block" title={why}>
      <strong>{t('common.labelled', { label: t('audit.unvouched.label') })}</strong> {why}
    </span>
  );
}

/** Under the outcome: each step with its mark when there were several, and the check afterwards. */
function ActDetail({ row }: { row: AuditActRow }) {
  const { t } = useTranslation();
  // The last step's outcome is the tag above: here, the steps before it.
  const steps = row.steps
    .slice(0, -1)
    .map((step) => `${t(`audit.actions.${step.operation}`)} ${OUTCOME_MARK[step.outcome]}`)
    .join(' · ');
  const stepsInWords = row.steps.map((step) => `${t('common.labelled', { label: t(`audit.actions.${step.operation}`) })} ${t(`audit.outcomes.${step.outcome}`)}`).join(' · ');
  const errorCode = row.entry.errorCode;
  const batch = row.entry.batch;
  const acknowledgement = row.entry.acknowledgement;
  if (acknowledgement) {
    // The reason is what the operator typed: shown as text, whole.
    return (
      <span className="audit-grid__detail small block" title={acknowledgement.problem}>
        {t('audit.acknowledgedDetail', { finding: acknowledgement.finding, reason: acknowledgement.reason })}
      </span>
    );
  }
  if (batch) {
    const counts = { ...batch, done: batch.done + batch.doneBeforeInterruption, operation: t(`audit.actions.${batch.operation}`), ended: t(`audit.batchEnded.${batch.ended}`) };
    return <span className="audit-grid__detail small block">{t('audit.batchSummary', counts)}</span>;
  }
  if (!steps && !row.verification && !errorCode) return null;
  return (
    <span className="audit-grid__detail small block" title={[stepsInWords, errorCode].filter(Boolean).join(' · ')}>
      {errorCode && <code className="audit-grid__code">{errorCode}</code>}
      {errorCode && (steps || row.verification) && <span className="muted"> · </span>}
      {steps && <span className="muted">{steps}</span>}
      {steps && row.verification && <span className="muted"> · </span>}
      {row.verification && <span className={`verification verification--${row.verification}`}>{t(`audit.verifications.${row.verification}`)}</span>}
      {/* The steps in words for assistive technology; the marks alone say little when read aloud. */}
      {steps && <span className="visually-hidden"> ({stepsInWords})</span>}
    </span>
  );
}
