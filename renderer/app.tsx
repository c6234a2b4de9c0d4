import * as Tabs from '@radix-ui/react-tabs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { isNotConnectedError } from './bridge/http-transport';
import { AppHeader } from './components/app-header';
import { ErrorBoundary } from './components/error-boundary';
import { ErrorPanel } from './components/error-panel';
import { Notices } from './components/notices';
import { useUnrecordedOutcomeNotices } from './components/unrecorded-outcome';
import { useScrollKeysReachTheView } from './components/view-scroll';
import { AuditView } from './features/audit/audit-view';
import { BatchView } from './features/batch/batch-view';
import { ErasureDialog } from './features/erasure/erasure-dialog';
import { LogoutView } from './features/logout/logout-view';
import { FirstRun } from './features/profiles/first-run';
import { ProfilesView } from './features/profiles/profiles-view';
import { DueBadge } from './features/requests/due-badge';
import { ReconcileView } from './features/reconcile/reconcile-view';
import { RequestsView } from './features/requests/requests-view';
import { UsersView } from './features/users/users-view';
import { useAppliedTheme } from './state/use-applied-theme';
import { useUiStore, VIEWS, type View } from './state/ui-store';
import { useActiveProfile, useAppInfo, useProfiles } from './state/use-profiles';
import type { ProfileView } from '../shared/contract';

const TAB_LABEL = { users: 'nav.users', reconcile: 'nav.reconcile', batch: 'nav.batch', requests: 'nav.requests', logout: 'nav.logout', audit: 'nav.audit', profiles: 'nav.profiles' } as const;

export function App() {
  const { t, i18n } = useTranslation();
  const appInfo = useAppInfo();
  const profiles = useProfiles();
  const profile = useActiveProfile();
  const view = useUiStore((s) => s.view);
  const setView = useUiStore((s) => s.setView);
  const theme = useUiStore((s) => s.theme);
  const language = useUiStore((s) => s.language);

  useEffect(() => {
    if (i18n.language !== language) void i18n.changeLanguage(language);
    document.documentElement.lang = language;
  }, [i18n, language]);
  useAppliedTheme(theme);
  useUnrecordedOutcomeNotices();
  useScrollKeysReachTheView();

  if (appInfo.isError || profiles.isError) {
    const error = appInfo.error ?? profiles.error;
    return (
      <main className="splash">
        {isNotConnectedError(error) ? (
          <div className="splash__card" role="alert">
            <h1>{t('app.notConnectedTitle')}</h1>
            <p>{t('app.notConnected')}</p>
          </div>
        ) : (
          <div className="splash__card">
            <h1>{t('app.startFailed')}</h1>
            <ErrorPanel title={t('app.startFailed')} error={error} onRetry={() => void (appInfo.isError ? appInfo.refetch() : profiles.refetch())} />
          </div>
        )}
      </main>
    );
  }
  if (!appInfo.data || !profiles.data) {
    return (
      <main className="splash" aria-busy="true">
        <p className="splash__loading">{t('app.loading')}</p>
      </main>
    );
  }

  const noProfiles = profiles.data.profiles.length === 0;
  return (
    <Tabs.Root className="app" value={view} onValueChange={(value) => setView(value as View)} activationMode="manual">
      {/* Header and tabs stay at the top while scrolling: the live marking is never out of sight. */}
      <div className="app-chrome">
        <AppHeader profile={profile} appInfo={appInfo.data} />
        <nav className="app-nav" aria-label={t('nav.label')}>
          <Tabs.List className="tabs" aria-label={t('nav.label')}>
            {VIEWS.map((id) => (
              <Tabs.Trigger key={id} value={id} className="tabs__tab">
                {t(TAB_LABEL[id])}
                {id === 'requests' ? <DueBadge /> : null}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </nav>
      </div>
      {/* The view scrolls in its own box, focusable so the keys that scroll reach it (components/view-scroll.ts). */}
      <main className="app-main" tabIndex={-1}>
        <Tabs.Content value="users" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.users')}>
            <NeedsProfile profile={profile} noProfiles={noProfiles}>
              {(active) => <UsersView profile={active} />}
            </NeedsProfile>
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="reconcile" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.reconcile')}>
            <NeedsProfile profile={profile} noProfiles={noProfiles}>
              {(active) => <ReconcileView profile={active} />}
            </NeedsProfile>
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="batch" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.batch')}>
            <NeedsProfile profile={profile} noProfiles={noProfiles}>
              {(active) => <BatchView profile={active} />}
            </NeedsProfile>
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="requests" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.requests')}>
            <RequestsView />
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="logout" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.logout')}>
            <NeedsProfile profile={profile} noProfiles={noProfiles}>
              {(active) => <LogoutView profile={active} />}
            </NeedsProfile>
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="audit" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.audit')}>
            <AuditView />
          </ErrorBoundary>
        </Tabs.Content>
        <Tabs.Content value="profiles" className="tab-panel">
          <ErrorBoundary what={t('viewError.views.profiles')}>
            <ProfilesView />
          </ErrorBoundary>
        </Tabs.Content>
      </main>
      <Notices />
      <ErrorBoundary what={t('viewError.views.erasure')}>
        <ErasureDialog profile={profile} appInfo={appInfo.data} />
      </ErrorBoundary>
    </Tabs.Root>
  );
}

/** Views that act on a service need an active profile; without one they lead the way to it. */
function NeedsProfile({ profile, noProfiles, children }: { profile: ProfileView | null; noProfiles: boolean; children: (profile: ProfileView) => React.ReactNode }) {
  const { t } = useTranslation();
  const setView = useUiStore((s) => s.setView);
  if (profile) return <>{children(profile)}</>;
  if (noProfiles) return <FirstRun />;
  return (
    <section className="empty-state">
      <h2>{t('firstRun.noActiveTitle')}</h2>
      <p className="empty-state__body">{t('firstRun.noActiveBody')}</p>
      <button type="button" className="button button--primary" onClick={() => setView('profiles')}>
        {t('firstRun.goToProfiles')}
      </button>
    </section>
  );
}
