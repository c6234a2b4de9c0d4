import { useQuery } from '@tanstack/react-query';
import type { AppInfo, ProfileView } from '../../shared/contract';
import { SANDBOX_PROFILE_ID } from '../../shared/profile';
import { useBridge } from '../bridge/bridge-context';
import { queryKeys } from './query-keys';

export function useAppInfo() {
  const bridge = useBridge();
  return useQuery({ queryKey: queryKeys.appInfo, queryFn: () => bridge['app.info']({}), staleTime: Infinity });
}

export function useProfiles() {
  const bridge = useBridge();
  return useQuery({ queryKey: queryKeys.profiles, queryFn: () => bridge['profiles.list']({}) });
}

/** The profile every service action applies to, or null when none is chosen. */
export function useActiveProfile(): ProfileView | null {
  const { data } = useProfiles();
  if (!data?.activeId) return null;
  return data.profiles.find((p) => p.id === data.activeId) ?? null;
}

export type Environment = 'sandbox' | 'local' | 'live';

/** Loopback profiles are calm ("Sandbox" when it is the bundled sandbox); everything else is live data. */
export function environmentOf(profile: ProfileView, appInfo?: AppInfo): Environment {
  if (!profile.isLocal) return 'live';
  const isBundledSandbox = profile.id === SANDBOX_PROFILE_ID || (appInfo?.sandboxUrl !== undefined && sameOrigin(profile.baseUrl, appInfo.sandboxUrl));
  return isBundledSandbox ? 'sandbox' : 'local';
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
