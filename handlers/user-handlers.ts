import type { AreaHandlers, HandlerContext } from './types';
import { linkLatestAct } from './request-link';

type UserMethods = 'users.list' | 'users.erase' | 'sandbox.userState' | 'sandbox.simulateLogin';

export function userHandlers({ desk }: HandlerContext): AreaHandlers<UserMethods> {
  return {
    'users.list': ({ profileId, page, perPage }) => desk.listUsers(profileId, { page, perPage }),
    // The erasure gate inside Desk checks confirmUid and writes the audit trail; via is fixed to 'app' there.
    'users.erase': async ({ profileId, action, uid, confirmUid, reference, logoutFirst, requestId }) => {
      // As the CLI's --request: an id the register does not hold is refused before anything is sent.
      const linkTo = requestId === undefined ? undefined : (await desk.requests.get(requestId)).id;
      const sentReference = reference ?? linkTo;
      try {
        return await desk.erase({ profileId, action, uid, confirmUid, logoutFirst, ...(sentReference !== undefined ? { reference: sentReference } : {}) });
      } finally {
        // Linked whatever the outcome: an act refused or of unknown outcome belongs to the request's file too.
        if (linkTo && sentReference) await linkLatestAct(desk, linkTo, uid, sentReference);
      }
    },
    'sandbox.userState': ({ profileId, uid }) => desk.sandboxUserState(profileId, uid),
    'sandbox.simulateLogin': ({ profileId, uid }) => desk.simulateSandboxLogin(profileId, uid),
  };
}
