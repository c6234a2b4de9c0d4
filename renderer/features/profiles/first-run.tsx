import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ProfileFormDialog } from './profile-form-dialog';

/** The welcome screen before any profile exists: one obvious way forward. */
export function FirstRun() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <section className="empty-state empty-state--hero" aria-labelledby="first-run-title">
      <div className="empty-state__mark" aria-hidden="true">
        <span>PD</span>
      </div>
      <h2 id="first-run-title">{t('firstRun.title')}</h2>
      <p className="empty-state__body">{t('firstRun.body')}</p>
      <h3 className="empty-state__subtitle">{t('firstRun.steps')}</h3>
      <ul className="empty-state__steps">
        <li>{t('firstRun.stepAddress')}</li>
        <li>{t('firstRun.stepApp')}</li>
        <li>{t('firstRun.stepKeys')}</li>
      </ul>
      <button type="button" className="button button--primary button--large" onClick={() => setOpen(true)}>
        {t('firstRun.addProfile')}
      </button>
      <ProfileFormDialog open={open} onOpenChange={setOpen} hasActiveProfile={false} />
    </section>
  );
}
