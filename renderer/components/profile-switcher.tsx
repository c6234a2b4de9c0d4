import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBridge } from '../bridge/bridge-context';
import { useNotices } from '../state/notices-store';
import { queryKeys } from '../state/query-keys';
import { useUiStore } from '../state/ui-store';
import { hostOf, useProfiles } from '../state/use-profiles';
import { LiveConfirmDialog } from './live-confirm-dialog';
import { HeaderSelect } from './header-select';
import { toErrorInfo } from '../../shared/errors';
import { wordError } from '../i18n/word-message';

export function ProfileSwitcher() {
  const { t, i18n } = useTranslation();
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
    onError: (error) => pushNotice({ tone: 'error', text: t('header.switchFailed', { message: wordError(i18n, toErrorInfo(error)) }) }),
  });
  // A live profile is only made active after the operator has read that it is live.
  const [pendingLive, setPendingLive] = useState<string | null>(null);
  const list = profiles.data?.profiles ?? [];
  const pendingProfile = list.find((profile) => profile.id === pendingLive);
  const choose = (profileId: string) => {
    const chosen = list.find((profile) => profile.id === profileId);
    if (chosen && !chosen.isLocal) setPendingLive(profileId);
    else setActive.mutate(profileId);
  };
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
        disabled={list.length === 0 || setActive.isPending}
        onChange={choose}
      />
      {pendingProfile && (
        <LiveConfirmDialog
          open
          title={t('liveConfirm.switchTitle')}
          body={t('liveConfirm.switchBody', { profile: pendingProfile.name, host: hostOf(pendingProfile.baseUrl) })}
          confirmLabel={t('liveConfirm.switchConfirm')}
          onCancel={() => setPendingLive(null)}
          onConfirm={() => {
            setPendingLive(null);
            setActive.mutate(pendingProfile.id);
          }}
        />
      )}
    </>
  );
}
