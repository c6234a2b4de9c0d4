import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEAM_IMPORT_PHRASE, type TeamImportPreview, type TeamImportResult, type TeamStatus } from '../../../shared/team-mode';
import { useBridge } from '../../bridge/bridge-context';
import { DialogShell } from '../../components/dialog-shell';
import { ErrorPanel } from '../../components/error-panel';
import { Field } from '../../components/field';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { wordMessage } from '../../i18n/word-message';

/**
 * `team import` from the settings: this data folder's trail, jobs and register moved into the team database, once.
 * The dialog reads what would move first (from the folder only), says what stays and that it cannot be undone, asks
 * for IMPORT typed, then shows what was moved and what was left out, and why (the core's import says so).
 */
export function TeamImportAction({ status }: { status: TeamStatus }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="team-mode__import" data-testid="team-import">
      <h4 className="team-mode__subtitle">{t('teamMode.importTitle')}</h4>
      {status.importedAt ? (
        <p data-testid="team-imported-at">{t('teamMode.importedAt', { at: formatDateTime(status.importedAt, i18n.language) })}</p>
      ) : (
        <>
          <p className="muted">{t('teamMode.importIntro')}</p>
          <div className="team-mode__buttons">
            <button type="button" className="button" onClick={() => setOpen(true)}>
              {t('teamMode.importOpen')}
            </button>
          </div>
        </>
      )}
      {/* Mounted while open only: each opening reads the folder again and starts with an empty field. */}
      {open ? <TeamImportDialog onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

function TeamImportDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const preview = useQuery({ queryKey: ['team-import-preview'], queryFn: () => bridge['team.importPreview']({}), gcTime: 0, staleTime: 0 });
  const [typed, setTyped] = useState('');
  const move = useMutation({
    mutationFn: () => bridge['team.import']({ confirmation: typed }),
    // The trail, the register, the jobs and the team's counts all changed: every view reads them again.
    onSettled: () => queryClient.invalidateQueries(),
  });
  return (
    <DialogShell open onOpenChange={(next) => (next ? undefined : onClose())} title={t('teamMode.importDialog.title')} description={t('teamMode.importDialog.description')} tone="danger" locked={move.isPending} className="team-import-dialog">
      {move.isSuccess ? (
        <ImportDone result={move.data} onClose={onClose} />
      ) : preview.isError ? (
        <>
          <ErrorPanel title={t('teamMode.importDialog.readFailed')} error={preview.error} onRetry={() => void preview.refetch()} retrying={preview.isFetching} />
          <CloseOnly onClose={onClose} />
        </>
      ) : !preview.data ? (
        <p className="muted">{t('teamMode.importDialog.reading')}</p>
      ) : (
        <form
          className="form team-import"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === TEAM_IMPORT_PHRASE && !move.isPending) move.mutate();
          }}
        >
          <WhatMoves preview={preview.data} />
          {preview.data.importedAt ? null : (
            <Field
              label={t('teamMode.importDialog.typeLabel', { phrase: TEAM_IMPORT_PHRASE })}
              hint={typed === TEAM_IMPORT_PHRASE ? t('teamMode.importDialog.typeMatches') : t('teamMode.importDialog.typeHint', { phrase: TEAM_IMPORT_PHRASE })}
              liveHint
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              spellCheck={false}
              disabled={move.isPending}
            />
          )}
          {move.isPending ? (
            <p role="status" className="team-import__progress">
              {t('teamMode.importDialog.progress', { where: preview.data.where })}
            </p>
          ) : null}
          {move.isError ? (
            <div>
              <ErrorPanel title={t('teamMode.importDialog.failed')} error={move.error} />
              <p className="field__hint">{t('teamMode.importDialog.failedHint')}</p>
            </div>
          ) : null}
          <div className="dialog__actions">
            <button type="button" className="button button--ghost" onClick={onClose} disabled={move.isPending}>
              {t('common.cancel')}
            </button>
            {preview.data.importedAt ? null : (
              <button type="submit" className="button button--danger" disabled={typed !== TEAM_IMPORT_PHRASE || move.isPending}>
                {move.isPending ? t('teamMode.importDialog.moving') : t('teamMode.importDialog.confirm')}
              </button>
            )}
          </div>
        </form>
      )}
    </DialogShell>
  );
}

/** What the folder holds and would move, what stays, and that it happens once. */
function WhatMoves({ preview }: { preview: TeamImportPreview }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  if (preview.importedAt) {
    return <p role="status">{t('teamMode.importDialog.alreadyDone', { where: preview.where, at: formatDateTime(preview.importedAt, i18n.language) })}</p>;
  }
  return (
    <div className="team-import__facts" data-testid="team-import-preview">
      <h4 className="team-mode__subtitle">{t('teamMode.importDialog.movesLabel', { where: preview.where })}</h4>
      <ul className="team-import__list">
        <li>{t('teamMode.importDialog.movesEntries', { entries: n(preview.auditEntries) })}</li>
        <li>{t('teamMode.importDialog.movesJobs', { jobs: n(preview.jobs) })}</li>
        <li>{t('teamMode.importDialog.movesRequests', { requests: n(preview.requests), events: n(preview.registerEvents) })}</li>
        {preview.damagedJobs > 0 ? <li>{t('teamMode.importDialog.damagedJobs', { jobs: n(preview.damagedJobs) })}</li> : null}
      </ul>
      <h4 className="team-mode__subtitle">{t('teamMode.importDialog.staysLabel')}</h4>
      <p>{t('teamMode.importDialog.stays')}</p>
      <p className="team-import__once">
        <strong>{t('teamMode.importDialog.once')}</strong>
      </p>
    </div>
  );
}

/** What was moved, and what was left out and why, in the window's language. */
function ImportDone({ result, onClose }: { result: TeamImportResult; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <div className="team-import" data-testid="team-import-result">
      <div role="status">
        <h4 className="team-mode__subtitle">{t('teamMode.importDialog.doneTitle', { where: result.where })}</h4>
        <p>{t('teamMode.importDialog.done', { entries: n(result.auditEntries), jobs: n(result.jobs), requests: n(result.requests), events: n(result.registerEvents) })}</p>
      </div>
      {result.localHeadHash && result.firstSeq !== null ? (
        <p>{t('teamMode.importDialog.joined', { hash: result.localHeadHash, seq: n(result.firstSeq) })}</p>
      ) : null}
      {result.trailAlreadyThere ? <p>{t('teamMode.importDialog.trailAlreadyThere')}</p> : null}
      {result.jobsNotImported.length > 0 || result.requestersUnreadable > 0 ? (
        <>
          <h4 className="team-mode__subtitle">{t('teamMode.importDialog.leftOutLabel')}</h4>
          <ul className="team-import__list" data-testid="team-import-left-out">
            {result.jobsNotImported.map((job) => (
              <li key={job.jobId}>{t('teamMode.importDialog.leftOutJob', { jobId: job.jobId, why: (job.text && wordMessage(i18n, job.text)) ?? job.why })}</li>
            ))}
            {result.requestersUnreadable > 0 ? <li>{t('teamMode.importDialog.unreadable', { requesters: n(result.requestersUnreadable) })}</li> : null}
          </ul>
        </>
      ) : null}
      <CloseOnly onClose={onClose} />
    </div>
  );
}

function CloseOnly({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="dialog__actions">
      <button type="button" className="button button--primary" onClick={onClose}>
        {t('teamMode.importDialog.close')}
      </button>
    </div>
  );
}
