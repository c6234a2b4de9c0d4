import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditOperation } from '../../../shared/audit';
import { OUTCOMES } from '../../../shared/errors';
import { useAuditFilter, isFilterActive, type AuditFilterForm } from './audit-filter-store';

// 'batch': a batch job's summary entry (its items are audited under their own operation); 'acknowledge': an anchor finding acknowledged.
const OPERATIONS = ['anonymize', 'delete', 'logout', 'batch', 'acknowledge'] as const satisfies ReadonlyArray<AuditOperation>;

/** Date range, operation, outcome, profile, uid and reference: every field narrows the rows and the export alike. */
export function AuditFilters({ profiles }: { profiles: ReadonlyArray<{ id: string; name: string }> }) {
  const { t } = useTranslation();
  const form = useAuditFilter((s) => s.form);
  const setField = useAuditFilter((s) => s.setField);
  const clear = useAuditFilter((s) => s.clear);
  const id = useId();
  const field = (key: keyof AuditFilterForm) => `${id}-${key}`;

  return (
    <form className="audit-filters" role="search" aria-label={t('audit.filters.label')} onSubmit={(event) => event.preventDefault()}>
      <div className="audit-filters__field">
        <label htmlFor={field('from')}>{t('audit.filters.from')}</label>
        <input id={field('from')} className="input" type="date" value={form.from} max={form.to || undefined} onChange={(event) => setField('from', event.target.value)} />
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('to')}>{t('audit.filters.to')}</label>
        <input id={field('to')} className="input" type="date" value={form.to} min={form.from || undefined} onChange={(event) => setField('to', event.target.value)} />
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('operation')}>{t('audit.filters.operation')}</label>
        <select id={field('operation')} className="input" value={form.operation} onChange={(event) => setField('operation', event.target.value as AuditFilterForm['operation'])}>
          <option value="">{t('audit.filters.any')}</option>
          {OPERATIONS.map((operation) => (
            <option key={operation} value={operation}>
              {t(`audit.actions.${operation}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('outcome')}>{t('audit.filters.outcome')}</label>
        <select id={field('outcome')} className="input" value={form.outcome} onChange={(event) => setField('outcome', event.target.value as AuditFilterForm['outcome'])}>
          <option value="">{t('audit.filters.any')}</option>
          {OUTCOMES.map((outcome) => (
            <option key={outcome} value={outcome}>
              {t(`audit.outcomes.${outcome}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('profileId')}>{t('audit.filters.profile')}</label>
        <select id={field('profileId')} className="input" value={form.profileId} onChange={(event) => setField('profileId', event.target.value)}>
          <option value="">{t('audit.filters.any')}</option>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.name}
            </option>
          ))}
        </select>
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('uid')}>{t('audit.filters.uid')}</label>
        <input id={field('uid')} className="input mono" type="search" value={form.uid} spellCheck={false} autoComplete="off" onChange={(event) => setField('uid', event.target.value)} />
      </div>
      <div className="audit-filters__field">
        <label htmlFor={field('reference')}>{t('audit.filters.reference')}</label>
        <input id={field('reference')} className="input" type="search" value={form.reference} spellCheck={false} autoComplete="off" onChange={(event) => setField('reference', event.target.value)} />
      </div>
      <div className="audit-filters__clear">
        <button type="button" className="button button--ghost button--small" onClick={clear} disabled={!isFilterActive(form)}>
          {t('audit.filters.clear')}
        </button>
      </div>
    </form>
  );
}
