import { useTranslation } from 'react-i18next';

/** The red stripe across the top whenever the active profile is not on this computer. */
export function LiveBanner({ host }: { host: string }) {
  const { t } = useTranslation();
  return (
    <div className="live-banner" role="note">
      <span aria-hidden="true" className="live-banner__icon">▲</span>
      <strong>{t('env.liveBanner', { host })}</strong>
      <span className="live-banner__detail">{t('env.liveBannerDetail')}</span>
    </div>
  );
}
