import { useTranslation } from 'react-i18next';
import { LOGOUT_ALGORITHMS, type LogoutAlgorithm } from '../../../shared/logout';
import { Field } from '../../components/field';
import type { DraftProblem } from './build-options';
import { newJti, useLogoutStore } from './logout-store';

/** aud, iat, exp, jti, extra claims, events and algorithm: everything the token carries besides sub. */
export function ClaimsEditor({ applicationName, problems }: { applicationName: string; problems: DraftProblem[] }) {
  const { t } = useTranslation();
  const draft = useLogoutStore((s) => s.draft);
  const update = useLogoutStore((s) => s.updateDraft);
  const problemText = (field: DraftProblem['field']) => {
    const problem = problems.find((p) => p.field === field);
    if (!problem) return undefined;
    if (problem.key === 'extraClaimsInvalid') return t('logout.extraClaimsInvalid');
    if (problem.key === 'extraClaimsIdentity') return t('logout.extraClaimsIdentity', { names: problem.detail });
    return t(`logout.${problem.key}`);
  };

  return (
    <fieldset className="claims-editor">
      <legend>{t('logout.claims')}</legend>
      <div className="grid-2">
        <Field
          label={t('logout.audience')}
          hint={t('logout.audienceHint', { app: applicationName })}
          value={draft.audience}
          placeholder={applicationName}
          onChange={(event) => update({ audience: event.target.value })}
          autoComplete="off"
          spellCheck={false}
        />
        <Field
          label={t('logout.algorithm')}
          render={({ id, describedBy }) => (
            <select id={id} aria-describedby={describedBy} className="select" value={draft.algorithm} onChange={(event) => update({ algorithm: event.target.value as LogoutAlgorithm })}>
              {LOGOUT_ALGORITHMS.map((alg) => (
                <option key={alg} value={alg}>
                  {alg}
                </option>
              ))}
            </select>
          )}
        />
        <Field
          label={t('logout.issuedAt')}
          hint={t('logout.issuedAtHint')}
          error={problemText('issuedAt')}
          value={draft.issuedAt}
          inputMode="numeric"
          onChange={(event) => update({ issuedAt: event.target.value })}
          autoComplete="off"
        />
        <Field
          label={t('logout.expiresIn')}
          hint={t('logout.expiresInHint')}
          error={problemText('expiresIn')}
          value={draft.expiresIn}
          inputMode="numeric"
          onChange={(event) => update({ expiresIn: event.target.value })}
          autoComplete="off"
        />
      </div>
      <div className="field-with-action">
        <Field label={t('logout.jti')} value={draft.jti} onChange={(event) => update({ jti: event.target.value })} autoComplete="off" spellCheck={false} className="field--mono" />
        <button type="button" className="button" onClick={() => update({ jti: newJti() })}>
          {t('logout.newJti')}
        </button>
      </div>
      <Field
        label={t('logout.extraClaims')}
        hint={t('logout.extraClaimsHint')}
        error={problemText('extraClaims')}
        render={({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            className="input textarea mono"
            rows={3}
            spellCheck={false}
            value={draft.extraClaims}
            onChange={(event) => update({ extraClaims: event.target.value })}
          />
        )}
      />
      <label className="checkbox">
        <input type="checkbox" checked={draft.includeEvents} onChange={(event) => update({ includeEvents: event.target.checked })} />
        <span>{t('logout.events')}</span>
      </label>
    </fieldset>
  );
}
