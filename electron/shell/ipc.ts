import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { BRIDGE_CHANNEL_PREFIX, BRIDGE_EVENT_CHANNEL_PREFIX, BRIDGE_METHOD_NAMES } from '../../shared/bridge-methods';
import type { BridgeEvent, BridgeResponse } from '../../shared/contract';
import { dispatchBridgeCall } from '../../handlers/dispatch';
import type { BridgeHandlers } from '../../handlers/types';
import { isTrustedRecipient, isTrustedSender } from './sender-guard';

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

/**
 * The other direction: each event goes, on its own `privacy-desk-event:<name>`
 * channel, to every trusted window whose main frame still shows our page, and
 * to nothing else. Answers the function that stops forwarding.
 */
export function forwardBridgeEvents(
  events: { subscribe(listener: (event: BridgeEvent) => void): () => void },
  trustedIds: ReadonlySet<number>,
  contentsById: (id: number) => WebContents | undefined,
): () => void {
  return events.subscribe(({ name, payload }) => {
    for (const id of trustedIds) {
      const contents = contentsById(id);
      if (!contents || contents.isDestroyed()) continue;
      if (!isTrustedRecipient({ webContentsId: id, mainFrameUrl: contents.mainFrame.url }, trustedIds)) continue;
      contents.send(BRIDGE_EVENT_CHANNEL_PREFIX + name, payload);
    }
  });
}
