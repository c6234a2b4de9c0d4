import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import { toErrorInfo } from '../../../shared/errors';
import { useBridge } from '../../bridge/bridge-context';
import { LiveConfirmDialog } from '../../components/live-confirm-dialog';
import { wordError } from '../../i18n/word-message';
import { useNotices } from '../../state/notices-store';
import { queryKeys } from '../../state/query-keys';
import { useUiStore } from '../../state/ui-store';
import { hostOf, useProfiles } from '../../state/use-profiles';

const SWITCH_KEY = ['profiles.setActive'] as const;

/** The live profile waiting for the operator's "Switch to live data": one for the whole window. */
const usePendingLive = create<{ profileId: string | null; ask: (profileId: string) => void; clear: () => void }>((set) => ({
  profileId: null,
  ask: (profileId) => set({ profileId }),
  clear: () => set({ profileId: null }),
}));

function useSetActive() {
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const selectUser = useUiStore((s) => s.selectUser);
  const pushNotice = useNotices((s) => s.push);
  return useMutation({
    mutationKey: SWITCH_KEY,
    mutationFn: (profileId: string) => bridge['profiles.setActive']({ id: profileId }),
    onSuccess: () => {
      selectUser(null);
      return queryClient.invalidateQueries({ queryKey: queryKeys.profiles });
    },
    onError: (error) => pushNotice({ tone: 'error', text: (t, i18n) => t('header.switchFailed', { message: wordError(i18n, toErrorInfo(error)) }) }),
  });
}

/**
 * The one way a profile becomes the active one, from the header's selector or a profile's "Use this profile":
 * a local profile at once, a live one only after the operator has read that it is live (ProfileSwitchConfirm).
 */
export function useProfileSwitch() {
  const profiles = useProfiles();
  const setActive = useSetActive();
  const ask = usePendingLive((s) => s.ask);
  const switching = useIsMutating({ mutationKey: SWITCH_KEY }) > 0;
  const choose = (profileId: string) => {
    const chosen = profiles.data?.profiles.find((profile) => profile.id === profileId);
    if (chosen && !chosen.isLocal) ask(profileId);
    else setActive.mutate(profileId);
  };
  return { choose, switching };
}

/** "Switch to a live profile?": shown once in the window (the header renders it), whichever control asked. */
export function ProfileSwitchConfirm() {
  const { t } = useTranslation();
  const profiles = useProfiles();
  const setActive = useSetActive();
  const { profileId, clear } = usePendingLive();
  const pending = profiles.data?.profiles.find((profile) => profile.id === profileId);
  if (!pending) return null;
  return (
    <LiveConfirmDialog
      open
      title={t('liveConfirm.switchTitle')}
      body={t('liveConfirm.switchBody', { profile: pending.name, host: hostOf(pending.baseUrl) })}
      confirmLabel={t('liveConfirm.switchConfirm')}
      onCancel={clear}
      onConfirm={() => {
        clear();
        setActive.mutate(pending.id);
      }}
    />
  );
}
