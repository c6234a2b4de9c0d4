import type { AreaHandlers, HandlerContext } from './types';

/** The audit trail for the window: read (never fails on a bad line), verify the chain, export what a filter keeps. */
export function auditHandlers({ desk }: HandlerContext): AreaHandlers<'audit.list' | 'audit.read' | 'audit.verify' | 'audit.export'> {
  return {
    'audit.list': async ({ limit }) => ({ entries: await desk.auditEntries(limit) }),
    'audit.read': async () => desk.readAudit(),
    'audit.verify': async () => desk.verifyAudit(),
    'audit.export': async ({ format, filter }) => desk.exportAudit({ format, filter }),
  };
}
