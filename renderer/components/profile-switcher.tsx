import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/bridge-context';
import { useNotices } from '../state/notices-store';
import { queryKeys } from '../state/query-keys';
import { useUiStore } from '../state/ui-store';
import { useProfiles } from '../state/use-profiles';

export function ProfileSwitcher() {
  const { t } = useTranslation();
  const id = useId();
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
  return (
    <div className="header-control">
      <label htmlFor={id} className="header-control__label">
        {t('header.activeProfile')}
      </label>
      <select
        id={id}
        className="select"
        value={profiles.data?.activeId ?? ''}
        disabled={list.length === 0 || setActive.isPending}
        onChange={(event) => setActive.mutate(event.target.value)}
      >
        {(profiles.data?.activeId ?? null) === null && <option value="">{list.length === 0 ? t('header.noProfile') : '—'}</option>}
        {list.map((profile) => (
          <option key={profile.id} value={profile.id}>
            {profile.name}
          </option>
        ))}
      </select>
    </div>
  );
}
