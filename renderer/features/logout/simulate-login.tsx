import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ProfileView } from '../../../shared/contract';
import { useBridge } from '../../bridge/bridge-context';
import { ErrorPanel } from '../../components/error-panel';
import { queryKeys } from '../../state/query-keys';

/**
 * Sandbox only: opens a session for the uid, so a valid logout visibly ends
 * sessions and a negative case visibly leaves them ("Before 0 → After 0" proves nothing).
 */
export function SimulateLogin({ profile, uid }: { profile: ProfileView; uid: string }) {
  const { t } = useTranslation();
  const bridge = useBridge();
  const queryClient = useQueryClient();
  const login = useMutation({
    mutationFn: () => bridge['sandbox.simulateLogin']({ profileId: profile.id, uid }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.sandboxUserState(profile.id, uid) }),
  });
  if (!profile.isLocal) return null;
  return (
    <div className="simulate-login">
      <button type="button" className="button button--ghost" onClick={() => login.mutate()} disabled={login.isPending}>
        {t('logoutSimulate.button')}
      </button>
      <span className="muted">{t('logoutSimulate.hint')}</span>
      {login.isError && <ErrorPanel title={t('logoutSimulate.failed')} error={login.error} />}
    </div>
  );
}
