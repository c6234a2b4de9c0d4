import { createAuditPages } from './audit-pages';
import type { AreaHandlers, HandlerContext } from './types';

/** The audit trail for the window: read (never fails on a bad line), verify the chain, acknowledge an anchor finding, export what a filter keeps, draw a receipt. */
export function auditHandlers({ desk }: HandlerContext): AreaHandlers<'audit.list' | 'audit.read' | 'audit.readPage' | 'audit.verify' | 'audit.acknowledge' | 'audit.export' | 'audit.receipt'> {
  const readPage = createAuditPages(() => desk.readAudit());
  return {
    'audit.list': async ({ limit }) => ({ entries: await desk.auditEntries(limit) }),
    'audit.read': async () => desk.readAudit(),
    'audit.readPage': readPage,
    'audit.verify': async () => desk.verifyAudit(),
    'audit.acknowledge': async ({ finding, reason }) => desk.acknowledgeAuditFinding({ finding, reason }),
    'audit.export': async ({ format, filter }) => desk.exportAudit({ format, filter }),
    'audit.receipt': async ({ reference, actId, locale }) => {
      const receipt = await desk.receipt(reference !== undefined ? { reference } : { actId: actId ?? '' }, { locale });
      const { fileName, mimeType, acts, headHash, chainVerified } = receipt;
      return { fileName, mimeType, contentBase64: receipt.content.toString('base64'), acts, headHash, chainVerified };
    },
  };
}
