import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegisterSettings } from '../../../shared/requests';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { requestKeys, useRegisterSettings } from './use-requests';

/**
 * The register's settings: the DPO's time zone and whose public holidays count (every deadline is computed from
 * them), whether waiting for identity stops the clock, and how many years after closing a requester is purged.
 * The core checks them (an unknown zone or country is refused with the reason); every deadline is read again after.
 */
export function RegisterSettingsPanel({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const settings = useRegisterSettings();
  if (settings.isError) return <ErrorPanel title={t('requests.settings.loadFailed')} error={settings.error} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />;
  if (!settings.data) return <p className="muted">{t('common.loading')}</p>;
  return <SettingsForm saved={settings.data} onDone={onDone} />;
}

function SettingsForm({ saved, onDone }: { saved: RegisterSettings; onDone: () => void }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const ids = { zone: useId(), country: useId(), pause: useId(), years: useId() };
  const [values, setValues] = useState(saved);
  const save = useMutation({
    mutationFn: () => bridge['requests.saveSettings'](values),
    onSuccess: async (next) => {
      queryClient.setQueryData(requestKeys.settings, next);
      await queryClient.invalidateQueries({ queryKey: requestKeys.all });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form card register-settings" onSubmit={submit} aria-label={t('requests.settings.title')}>
      <h3 className="card__title">{t('requests.settings.title')}</h3>
      <div className="new-request__row">
        <div className="field">
          <label className="field__label" htmlFor={ids.zone}>
            {t('requests.settings.timeZone')}
          </label>
          <input id={ids.zone} className="input" required maxLength={100} value={values.timeZone} onChange={(e) => setValues({ ...values, timeZone: e.target.value.trim() })} />
          <span className="field__hint">{t('requests.settings.timeZoneHint')}</span>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.country}>
            {t('requests.settings.country')}
          </label>
          <input id={ids.country} className="input" required pattern="[A-Za-z]{2}" maxLength={2} value={values.country} onChange={(e) => setValues({ ...values, country: e.target.value.toUpperCase() })} />
          <span className="field__hint">{t('requests.settings.countryHint')}</span>
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.years}>
            {t('requests.settings.purgeAfterYears')}
          </label>
          <input id={ids.years} className="input" type="number" required min={1} max={50} value={values.purgeAfterYears} onChange={(e) => setValues({ ...values, purgeAfterYears: Number(e.target.value) })} />
        </div>
      </div>
      <label className="checkbox" htmlFor={ids.pause}>
        <input id={ids.pause} type="checkbox" checked={values.pauseStopsClock} onChange={(e) => setValues({ ...values, pauseStopsClock: e.target.checked })} />
        {t('requests.settings.pauseStopsClock')}
      </label>
      <div className="request-decisions__buttons">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {t('requests.settings.save')}
        </button>
        <button type="button" className="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
      {save.isError ? <ErrorPanel title={t('requests.settings.saveFailed')} error={save.error} /> : null}
    </form>
  );
}
