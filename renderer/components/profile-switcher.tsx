import { useTranslation } from 'react-i18next';
import { useProfiles } from '../state/use-profiles';
import { HeaderSelect } from './header-select';
import { ProfileSwitchConfirm, useProfileSwitch } from '../features/profiles/profile-switch';

export function ProfileSwitcher() {
  const { t } = useTranslation();
  const profiles = useProfiles();
  // The same switch as "Use this profile": a live profile is only made active after the operator has read that it is live.
  const { choose, switching } = useProfileSwitch();
  const list = profiles.data?.profiles ?? [];
  const activeId = profiles.data?.activeId ?? '';
  // With no active profile, an empty first choice says so instead of pretending one is selected.
  const placeholder = activeId === '' ? [{ value: '', label: list.length === 0 ? t('header.noProfile') : '—' }] : [];
  const options = [...placeholder, ...list.map((profile) => ({ value: profile.id, label: profile.name }))];
  return (
    <>
      <HeaderSelect
        label={t('header.activeProfile')}
        value={activeId}
        options={options}
        disabled={list.length === 0 || switching}
        onChange={choose}
      />
      <ProfileSwitchConfirm />
    </>
  );
}
