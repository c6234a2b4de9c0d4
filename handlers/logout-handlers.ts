import type { AreaHandlers, HandlerContext } from './types';

type LogoutMethods = 'logout.preview' | 'logout.send' | 'logout.verify';

export function logoutHandlers({ desk }: HandlerContext): AreaHandlers<LogoutMethods> {
  return {
    'logout.preview': ({ profileId, uid, options }) => desk.buildLogoutToken(profileId, uid, options),
    'logout.send': ({ profileId, uid, options }) => desk.sendLogout(profileId, uid, options),
    'logout.verify': ({ profileId, token }) => desk.verifyLogoutToken(profileId, token),
  };
}
