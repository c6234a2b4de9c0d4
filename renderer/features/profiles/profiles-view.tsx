import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import { ErrorPanel } from '../../components/error-panel';
import { useAppInfo, useProfiles } from '../../state/use-profiles';
import { DeleteProfileDialog } from './delete-profile-dialog';
import { FirstRun } from './first-run';
import { ProfileCard } from './profile-card';
import { ProfileFormDialog } from './profile-form-dialog';
import { ViewSection } from '../../components/view-section';
import { TeamSection } from '../team/team-section';

type FormState = { mode: 'add' } | { mode: 'edit'; profile: ProfileView } | null;

export function ProfilesView() {
  const { t } = useTranslation();
  const profiles = useProfiles();
  const appInfo = useAppInfo();
  const [form, setForm] = useState<FormState>(null);
  const [deleting, setDeleting] = useState<ProfileView | null>(null);

  if (profiles.isError) {
    return <ErrorPanel title={t('profiles.title')} error={profiles.error} onRetry={() => void profiles.refetch()} retrying={profiles.isFetching} />;
  }
  if (!profiles.data) return <p className="muted">{t('common.loading')}</p>;
  if (profiles.data.profiles.length === 0) return <FirstRun />;

  const { activeId } = profiles.data;
  return (
    <ViewSection
      id="profiles"
      title={t('profiles.title')}
      // Says where credentials really go: without a keychain they live in memory for this session.
      intro={appInfo.data && !appInfo.data.keychain.available ? t('profiles.introSession') : t('profiles.intro')}
      actions={
        <button type="button" className="button button--primary" onClick={() => setForm({ mode: 'add' })}>
          {t('profiles.addProfile')}
        </button>
      }
    >
      <div className="profile-list" role="list" aria-label={t('profiles.listLabel')}>
        {profiles.data.profiles.map((profile) => (
          <div role="listitem" key={profile.id}>
            <ProfileCard
              profile={profile}
              active={profile.id === activeId}
              appInfo={appInfo.data}
              onEdit={() => setForm({ mode: 'edit', profile })}
              onDelete={() => setDeleting(profile)}
            />
          </div>
        ))}
      </div>
      <ProfileFormDialog
        open={form !== null}
        onOpenChange={(open) => (open ? undefined : setForm(null))}
        profile={form?.mode === 'edit' ? form.profile : undefined}
        hasActiveProfile={activeId !== null}
      />
      <DeleteProfileDialog profile={deleting} onClose={() => setDeleting(null)} />
      <TeamSection />
    </ViewSection>
  );
}
