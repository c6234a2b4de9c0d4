import { useTranslation } from 'react-i18next';

/** The last seconds before the request leaves: the number, and a Cancel that has the focus. */
export function ErasureCountdown({ remaining, onCancel }: { remaining: number | null; onCancel: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="countdown">
      <p className="countdown__number" aria-hidden="true">{remaining}</p>
      <div className="countdown__text" role="timer" aria-live="polite" aria-atomic="true">
        <p className="countdown__title">{t('erasure.countdown', { seconds: remaining ?? 0 })}</p>
        <p className="countdown__hint">{t('erasure.countdownHint')}</p>
      </div>
      {/* Focus lands here so Enter or Space stops the request. */}
      <button type="button" className="button button--large button--primary countdown__cancel" autoFocus onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}

/** The request is on its way: nothing can stop it now. */
export function ErasureSending() {
  const { t } = useTranslation();
  return (
    <div className="sending" role="status">
      <span className="spinner" aria-hidden="true" />
      <div>
        <p className="sending__title">{t('erasure.sending')}</p>
        <p className="muted">{t('erasure.sendingHint')}</p>
      </div>
    </div>
  );
}
