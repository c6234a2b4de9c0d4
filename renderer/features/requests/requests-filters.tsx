import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { REQUEST_STATUSES, type RequestFilter } from '../../../shared/requests';
import { useProfiles } from '../../state/use-profiles';

export type StatusChoice = NonNullable<RequestFilter['status']> | 'all';
export const STATUS_CHOICES: readonly StatusChoice[] = ['open', 'all', ...REQUEST_STATUSES, 'closed'];

export interface RequestsFilterValues {
  status: StatusChoice;
  profileId: string;
  text: string;
}

/** The list's filters: status (open by default), the profile a uid belongs to, and text found in the id, uids and notes. */
export function RequestsFilters({ values, onChange }: { values: RequestsFilterValues; onChange: (values: RequestsFilterValues) => void }) {
  const { t } = useTranslation();
  const profiles = useProfiles().data?.profiles ?? [];
  const ids = { status: useId(), profile: useId(), text: useId() };
  return (
    <div className="toolbar requests-filters" role="search" aria-label={t('requests.filters.label')}>
      <div className="field">
        <label className="field__label" htmlFor={ids.status}>
          {t('requests.filters.status')}
        </label>
        <select id={ids.status} className="select" value={values.status} onChange={(e) => onChange({ ...values, status: e.target.value as StatusChoice })}>
          {STATUS_CHOICES.map((status) => (
            <option key={status} value={status}>
              {t(`requests.statusChoice.${status}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.profile}>
          {t('requests.filters.profile')}
        </label>
        <select id={ids.profile} className="select" value={values.profileId} onChange={(e) => onChange({ ...values, profileId: e.target.value })}>
          <option value="">{t('requests.filters.anyProfile')}</option>
          {profiles.map((profile) => (
            <option key={profile.id} value={profile.id}>
              {profile.name}
            </option>
          ))}
        </select>
      </div>
      <div className="field requests-filters__text">
        <label className="field__label" htmlFor={ids.text}>
          {t('requests.filters.text')}
        </label>
        <input id={ids.text} className="input" type="search" value={values.text} placeholder={t('requests.filters.textHint')} onChange={(e) => onChange({ ...values, text: e.target.value })} />
      </div>
    </div>
  );
}

/** The bridge's filter for these choices ('all' is no status filter). */
export function toRequestFilter(values: RequestsFilterValues): RequestFilter {
  const text = values.text.trim();
  return {
    ...(values.status !== 'all' ? { status: values.status } : {}),
    ...(values.profileId ? { profileId: values.profileId } : {}),
    ...(text ? { text: text.slice(0, 500) } : {}),
  };
}
