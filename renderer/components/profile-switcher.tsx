import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/bridge-context';
import { useNotices } from '../state/notices-store';
import { queryKeys } from '../state/query-keys';
import { useUiStore } from '../state/ui-store';
import { useProfiles } from '../state/use-profiles';
import { HeaderSelect } from './header-select';

export function ProfileSwitcher() {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const profiles = useProfiles();
  const selectUser = useUiStore((s) => s.selectUser);
  const pushNotice = useNotices((s) => s.push);
  const setActive = useMutation({
    mutationFn: (profileId: string) => bridge['profiles.setActive']({ id: profileId }),
    onSuccess: () => {
      selectUser(null);
      return queryClient.invalidateQueries({ queryKey: queryKeys.profiles });
    },
    onError: (error) => pushNotice({ tone: 'error', text: t('header.switchFailed', { message: error.message }) }),
  });
  const list = profiles.data?.profiles ?? [];
  const activeId = profiles.data?.activeId ?? '';
  // With no active profile, an empty first choice says so instead of pretending one is selected.
  const placeholder = activeId === '' ? [{ value: '', label: list.length === 0 ? t('header.noProfile') : '—' }] : [];
  const options = [...placeholder, ...list.map((profile) => ({ value: profile.id, label: profile.name }))];
  return (
    <HeaderSelect
      label={t('header.activeProfile')}
      value={activeId}
      options={options}
      disabled={list.length === 0 || setActive.isPending}
      onChange={(profileId) => setActive.mutate(profileId)}
    />
  );
}
