import type { AreaHandlers, HandlerContext } from './types';

/** The logout conformance run: the gate validates, confirms (live profiles) and audits each send. */
export function conformanceHandlers({ desk }: HandlerContext): AreaHandlers<'logout.conformance'> {
  return {
    'logout.conformance': ({ profileId, ...order }) => desk.runLogoutConformance(profileId, order),
  };
}
