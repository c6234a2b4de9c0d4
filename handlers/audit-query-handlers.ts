import type { AreaHandlers, HandlerContext } from './types';

/** The trail a page at a time for the console (shared/audit-query.ts): where it is kept, and one filtered page. */
export function auditQueryHandlers({ desk }: HandlerContext): AreaHandlers<'audit.source' | 'audit.queryPage'> {
  return {
    'audit.source': async () => ({ kind: desk.auditQuery.kind, where: desk.auditQuery.where }),
    'audit.queryPage': async ({ filter, cursor, limit }) => desk.auditQuery.queryPage({ filter, cursor, limit }),
  };
}
