export { createBridgeHandlers } from './create-bridge-handlers';
export { dispatchBridgeCall, isBridgeMethod } from './dispatch';
export type { BridgeHandlers, DeskPort, HandlerContext } from './types';
