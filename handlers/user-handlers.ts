import type { AreaHandlers, HandlerContext } from './types';

type UserMethods = 'users.list' | 'users.erase' | 'sandbox.userState' | 'sandbox.simulateLogin';

export function userHandlers({ desk }: HandlerContext): AreaHandlers<UserMethods> {
  return {
    'users.list': ({ profileId, page, perPage }) => desk.listUsers(profileId, { page, perPage }),
    // The erasure gate inside Desk checks confirmUid and writes the audit trail; via is fixed to 'app' there.
    'users.erase': ({ profileId, action, uid, confirmUid, reference, logoutFirst }) =>
      desk.erase({ profileId, action, uid, confirmUid, logoutFirst, ...(reference !== undefined ? { reference } : {}) }),
    'sandbox.userState': ({ profileId, uid }) => desk.sandboxUserState(profileId, uid),
    'sandbox.simulateLogin': ({ profileId, uid }) => desk.simulateSandboxLogin(profileId, uid),
  };
}
