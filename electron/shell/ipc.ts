import { ipcMain, type IpcMainInvokeEvent } from 'electron';
import { BRIDGE_CHANNEL_PREFIX, BRIDGE_METHOD_NAMES } from '../../shared/bridge-methods';
import type { BridgeResponse } from '../../shared/contract';
import { dispatchBridgeCall } from '../../handlers/dispatch';
import type { BridgeHandlers } from '../../handlers/types';
import { isTrustedSender } from './sender-guard';

const REFUSED: BridgeResponse<never> = {
  ok: false,
  error: { code: 'UNAUTHORIZED', outcome: 'not-sent', message: 'Refused: only the Privacy Desk window may use this operation. Restart the app.' },
};

function senderAllowed(event: IpcMainInvokeEvent, trustedIds: ReadonlySet<number>): boolean {
  const frame = event.senderFrame;
  return isTrustedSender(
    {
      webContentsId: event.sender.id,
      isMainFrame: frame !== null && frame === event.sender.mainFrame,
      frameUrl: frame?.url,
    },
    trustedIds,
  );
}

/**
 * The IPC transport: one `privacy-desk:<method>` channel per bridge method,
 * each checking the sender before dispatching. Always answers with a
 * BridgeResponse, so the preload's promise never rejects.
 */
export function registerBridgeIpc(handlers: BridgeHandlers, trustedIds: ReadonlySet<number>): void {
  for (const method of BRIDGE_METHOD_NAMES) {
    ipcMain.handle(BRIDGE_CHANNEL_PREFIX + method, (event, input: unknown) =>
      senderAllowed(event, trustedIds) ? dispatchBridgeCall(handlers, method, input) : REFUSED,
    );
  }
}
