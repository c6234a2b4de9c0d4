import type { AreaHandlers, HandlerContext } from './types';

type ProfileMethods = 'profiles.list' | 'profiles.save' | 'profiles.remove' | 'profiles.setActive' | 'profiles.testConnection';

export function profileHandlers({ desk }: HandlerContext): AreaHandlers<ProfileMethods> {
  return {
    'profiles.list': () => desk.listProfiles(),
    'profiles.save': (input) => desk.saveProfile(input),
    'profiles.remove': async ({ id, confirmName }) => {
      await desk.removeProfile(id, confirmName);
      return { removed: true };
    },
    'profiles.setActive': async ({ id }) => {
      await desk.setActiveProfile(id);
      return { activeId: id };
    },
    'profiles.testConnection': async ({ id }) => ({ checks: await desk.testConnection(id) }),
  };
}
