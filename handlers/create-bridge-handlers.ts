import { appHandlers } from './app-handlers';
import { auditHandlers } from './audit-handlers';
import { auditQueryHandlers } from './audit-query-handlers';
import { batchHandlers } from './batch-handlers';
import { jobHandlers } from './job-handlers';
import { logoutHandlers } from './logout-handlers';
import { conformanceHandlers } from './conformance-handlers';
import { profileHandlers } from './profile-handlers';
import { reconcileHandlers } from './reconcile-handlers';
import { requestHandlers } from './request-handlers';
import { teamHandlers } from './team-handlers';
import { userHandlers } from './user-handlers';
import type { BridgeHandlers, HandlerContext } from './types';

/** Every bridge method over the Desk facade. Both transports (IPC, loopback web host) use this one set. */
export function createBridgeHandlers(ctx: HandlerContext): BridgeHandlers {
  return {
    ...appHandlers(ctx),
    ...profileHandlers(ctx),
    ...userHandlers(ctx),
    ...logoutHandlers(ctx),
    ...conformanceHandlers(ctx),
    ...auditHandlers(ctx),
    ...auditQueryHandlers(ctx),
    ...jobHandlers(ctx),
    ...batchHandlers(ctx),
    ...requestHandlers(ctx),
    ...teamHandlers(ctx),
    ...reconcileHandlers(ctx),
  };
}
