import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../shared/contract';
import { environmentOf, hostOf } from '../state/use-profiles';
import { EnvironmentBadge } from './environment-badge';
import { LiveBanner } from './live-banner';
import { LanguageSwitcher, ThemeSwitcher } from './preferences';
import { ProfileSwitcher } from './profile-switcher';

/** Which translated explanation fits the core's (English) description of the keychain failure. */
export function keychainReason(problem: string): 'noDbus' | 'noProvider' | 'locked' | 'sessionChosen' | 'other' {
  if (/^PRIVACY_DESK_CREDENTIAL_STORE=session/.test(problem)) return 'sessionChosen';
  if (/^No D-Bus session/i.test(problem)) return 'noDbus';
  if (/^No Secret Service provider/i.test(problem)) return 'noProvider';
  if (/^The keyring is locked/i.test(problem)) return 'locked';
  return 'other';
}

/** Product name, where the actions go (profile + environment) and the operator's preferences. */
export function AppHeader({ profile, appInfo }: { profile: ProfileView | null; appInfo?: AppInfo }) {
  const { t } = useTranslation();
  const environment = profile ? environmentOf(profile, appInfo) : null;
  return (
    <header className={`app-header ${environment === 'live' ? 'app-header--live' : ''}`}>
      {environment === 'live' && profile && <LiveBanner host={hostOf(profile.baseUrl)} />}
      <div className="app-header__bar">
        <div className="brand">
          <span className="brand__mark" aria-hidden="true">
            PD
          </span>
          <div>
            <h1 className="brand__name">{t('app.name')}</h1>
            <p className="brand__tagline">{t('app.tagline')}</p>
          </div>
        </div>
        <div className="app-header__profile">
          <ProfileSwitcher />
          {environment && profile && (
            <div className="app-header__env">
              <EnvironmentBadge environment={environment} />
              <span className="app-header__host mono">{hostOf(profile.baseUrl)}</span>
            </div>
          )}
        </div>
        <div className="app-header__prefs">
          <LanguageSwitcher />
          <ThemeSwitcher />
        </div>
      </div>
      {appInfo && !appInfo.keychain.available && (
        <div className="keychain-notice" role="status">
          <p>
            <span aria-hidden="true" className="keychain-notice__icon">!</span>
            <strong>{t('keychain.title')}</strong> {t('keychain.detail')}
          </p>
          {appInfo.keychain.problem && (
            <>
              <p className="keychain-notice__problem">{t(`keychain.reasons.${keychainReason(appInfo.keychain.problem)}`)}</p>
              {/* The system's own words stay as they are (English), offered as a detail, not as the explanation. */}
              <details className="keychain-notice__detail">
                <summary>{t('keychain.technicalDetail')}</summary>
                <p lang="en">{appInfo.keychain.problem}</p>
              </details>
            </>
          )}
        </div>
      )}
    </header>
  );
}
