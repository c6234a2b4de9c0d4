import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TeamStatus } from '../../../shared/team-mode';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { TeamImportAction } from './team-import';
import './team.css';

export const teamKeys = { status: ['team-status'] as const };

/** The header's mark in team mode: which database the trail, jobs and register are in (without the scheme, which every address has: the rest is what tells them apart; the whole address in its title). */
export function TeamBadge({ where }: { where: string }) {
  const { t } = useTranslation();
  return (
    <span className="team-badge mono" data-testid="team-badge" title={t('teamMode.headerLabel', { where })}>
      {t('teamMode.header', { where: where.replace(/^postgres:\/\//, '') })}
    </span>
  );
}

/**
 * Team mode in the settings: where the trail, jobs and register are kept. Connecting tests the database before
 * anything is saved; the password field is cleared at once and never filled from the core (it never returns it).
 * Every screen reads its data again afterwards: the stores changed under them.
 */
export function TeamSection() {
  const { t } = useTranslation();
  const bridge = useBridge();
  const status = useQuery({ queryKey: teamKeys.status, queryFn: () => bridge['team.status']({}) });
  return (
    <section className="card team-mode" aria-labelledby="team-mode-title" data-testid="team-mode">
      <h3 className="card__title" id="team-mode-title">
        {t('teamMode.title')}
      </h3>
      {status.isError ? (
        <ErrorPanel title={t('teamMode.loadFailed')} error={status.error} onRetry={() => void status.refetch()} retrying={status.isFetching} />
      ) : !status.data ? (
        <p className="muted">{t('common.loading')}</p>
      ) : status.data.mode === 'team' ? (
        <TeamOn status={status.data} onCheck={() => void status.refetch()} checking={status.isFetching} />
      ) : (
        <TeamOff />
      )}
    </section>
  );
}

/** After a switch every query is read again: the trail, the register and the jobs now come from elsewhere. */
function useSwitched() {
  const queryClient = useQueryClient();
  return async (next: TeamStatus | null) => {
    if (next) queryClient.setQueryData(teamKeys.status, next);
    await queryClient.invalidateQueries();
  };
}

function TeamOn({ status, onCheck, checking }: { status: TeamStatus; onCheck: () => void; checking: boolean }) {
  const { t, i18n } = useTranslation();
  const bridge = useBridge();
  const switched = useSwitched();
  const disconnect = useMutation({ mutationFn: () => bridge['team.disconnect']({}), onSuccess: () => switched({ mode: 'local' }) });
  const n = (value: number) => formatNumber(value, i18n.language);
  return (
    <div className="team-mode__body">
      <p className="muted">{t('teamMode.introTeam')}</p>
      <dl className="team-mode__facts">
        <dt>{t('teamMode.where')}</dt>
        <dd className="mono" data-testid="team-where">
          {status.where}
        </dd>
      </dl>
      {status.connectedAt && status.connectedBy ? <p>{t('teamMode.connectedBy', { at: formatDateTime(status.connectedAt, i18n.language), operator: status.connectedBy.operator, desktop: status.connectedBy.desktop })}</p> : null}
      {status.password ? <p>{t(`teamMode.password.${status.password}`)}</p> : null}
      {status.reachable ? (
        <>
          <p data-testid="team-reachable">{t('teamMode.reachable', { role: status.role ?? '?', desktop: status.desktop ?? '?' })}</p>
          {status.schema ? <p className="muted">{t('teamMode.schema', { steps: status.schema.steps, last: status.schema.last })}</p> : null}
          {status.counts ? <p>{t('teamMode.counts', { entries: n(status.counts.auditEntries), requests: n(status.counts.requests), jobs: n(status.counts.jobs) })}</p> : null}
        </>
      ) : status.problem ? (
        <ErrorPanel title={t('teamMode.unreachable')} error={status.problem} />
      ) : null}
      <div className="team-mode__buttons">
        <button type="button" className="button" onClick={onCheck} disabled={checking}>
          {t('teamMode.checkAgain')}
        </button>
        <button type="button" className="button" onClick={() => disconnect.mutate()} disabled={disconnect.isPending}>
          {t('teamMode.disconnect')}
        </button>
      </div>
      <p className="field__hint">{t('teamMode.disconnectHint')}</p>
      {disconnect.isError ? <ErrorPanel title={t('teamMode.disconnectFailed')} error={disconnect.error} /> : null}
      <TeamImportAction status={status} />
    </div>
  );
}

function TeamOff() {
  const { t } = useTranslation();
  const bridge = useBridge();
  const switched = useSwitched();
  const ids = { url: useId(), password: useId() };
  const [url, setUrl] = useState('');
  const [password, setPassword] = useState('');
  const connect = useMutation({
    mutationFn: (input: { databaseUrl: string; password: string }) => bridge['team.connect'](input),
    onSuccess: (next) => switched(next),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate({ databaseUrl: url.trim(), password });
    // The password leaves the field at once: it is kept by the core's keychain, never by the window.
    setPassword('');
  };
  return (
    <form className="form team-mode__body" onSubmit={submit} aria-label={t('teamMode.title')}>
      <p className="muted">{t('teamMode.introLocal')}</p>
      <div className="field">
        <label className="field__label" htmlFor={ids.url}>
          {t('teamMode.urlLabel')}
        </label>
        <input id={ids.url} className="input mono" required maxLength={1000} value={url} placeholder="postgres://dpo@db.example.org:5432/privacy_desk" autoComplete="off" spellCheck={false} onChange={(e) => setUrl(e.target.value)} />
        <span className="field__hint">{t('teamMode.urlHint')}</span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.password}>
          {t('teamMode.passwordLabel')}
        </label>
        <input id={ids.password} className="input" type="password" required maxLength={1000} value={password} autoComplete="new-password" onChange={(e) => setPassword(e.target.value)} />
        <span className="field__hint">{t('teamMode.passwordHint')}</span>
      </div>
      <div className="team-mode__buttons">
        <button type="submit" className="button button--primary" disabled={connect.isPending}>
          {connect.isPending ? t('teamMode.connecting') : t('teamMode.connect')}
        </button>
      </div>
      {connect.isError ? <ErrorPanel title={t('teamMode.connectFailed')} error={connect.error} /> : null}
    </form>
  );
}
