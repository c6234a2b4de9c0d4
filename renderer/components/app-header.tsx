import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../shared/contract';
import { environmentOf, hostOf } from '../state/use-profiles';
import { EnvironmentBadge } from './environment-badge';
import { KeychainNotice } from './keychain-notice';
import { LiveBanner } from './live-banner';
import { LanguageSwitcher, ThemeSwitcher } from './preferences';
import { ProfileSwitcher } from './profile-switcher';
import { TeamBadge } from '../features/team/team-section';

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
              {/* Under the service's host, taking no width of its own: the header fits 1024 px in both languages. */}
              {appInfo?.team && <TeamBadge where={appInfo.team.where} />}
            </div>
          )}
          {appInfo?.team && !(environment && profile) && <TeamBadge where={appInfo.team.where} />}
        </div>
        <div className="app-header__prefs">
          <LanguageSwitcher />
          <ThemeSwitcher />
        </div>
      </div>
      {appInfo && !appInfo.keychain.available && <KeychainNotice problem={appInfo.keychain.problem} />}
    </header>
  );
}
