import type { AreaHandlers, HandlerContext } from './types';

export function auditHandlers({ desk }: HandlerContext): AreaHandlers<'audit.list'> {
  return {
    'audit.list': async ({ limit }) => ({ entries: await desk.auditEntries(limit) }),
  };
}
