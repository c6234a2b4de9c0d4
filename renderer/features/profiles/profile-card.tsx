import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AppInfo, ProfileView } from '../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import { EmptyValue } from '../../components/empty-value';
import { EnvironmentBadge } from '../../components/environment-badge';
import { ErrorPanel } from '../../components/error-panel';
import { environmentOf } from '../../state/use-profiles';
import { ConnectionChecks } from './connection-checks';
import { useProfileSwitch } from './profile-switch';

interface ProfileCardProps {
  profile: ProfileView;
  active: boolean;
  appInfo?: AppInfo;
  onEdit: () => void;
  onDelete: () => void;
}

export function ProfileCard({ profile, active, appInfo, onEdit, onDelete }: ProfileCardProps) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const headingId = `profile-${profile.id}-name`;

  // The header's switch: a live profile only after "Switch to a live profile?", a failure said in a notice.
  const { choose, switching } = useProfileSwitch();
  const test = useMutation({ mutationFn: () => bridge['profiles.testConnection']({ id: profile.id }) });

  const storage =
    profile.credentialStorage === 'keychain'
      ? t('profiles.storageKeychain')
      : profile.credentialStorage === 'session'
        ? t('profiles.storageSession')
        : t('profiles.storageNone');

  return (
    <article className={`card profile-card ${active ? 'profile-card--active' : ''}`} aria-labelledby={headingId}>
      <header className="profile-card__header">
        <h3 id={headingId} className="profile-card__name">
          {profile.name}
        </h3>
        <EnvironmentBadge environment={environmentOf(profile, appInfo)} />
        {active && <span className="tag tag--active">✓ {t('profiles.active')}</span>}
      </header>
      <dl className="facts">
        <div>
          <dt>{t('profiles.baseUrl')}</dt>
          <dd className="mono">{profile.baseUrl}</dd>
        </div>
        <div>
          <dt>{t('profiles.applicationName')}</dt>
          <dd className="mono">{profile.applicationName}</dd>
        </div>
        <div>
          <dt>{t('profiles.apiKey')}</dt>
          <dd>{profile.apiKeyHint ? <span className="mono">…{profile.apiKeyHint}</span> : <EmptyValue />}</dd>
        </div>
        <div>
          <dt>{t('profiles.storage')}</dt>
          <dd className={profile.credentialStorage === 'keychain' ? '' : 'text-warning'}>{storage}</dd>
        </div>
      </dl>
      <div className="profile-card__actions">
        {!active && (
          <button type="button" className="button button--primary" onClick={() => choose(profile.id)} disabled={switching}>
            {t('profiles.useProfile')}
          </button>
        )}
        <button type="button" className="button" onClick={() => test.mutate()} disabled={test.isPending || !profile.hasCredentials}>
          {test.isPending ? t('connection.testing') : t('connection.test')}
        </button>
        <button type="button" className="button" onClick={onEdit}>
          {t('profiles.edit')}
        </button>
        <button type="button" className="button button--danger-ghost" onClick={onDelete}>
          {t('profiles.delete')}
        </button>
      </div>
      {test.isError && <ErrorPanel title={t('connection.test')} error={test.error} />}
      {test.data && <ConnectionChecks checks={test.data.checks} profileName={profile.name} />}
    </article>
  );
}
