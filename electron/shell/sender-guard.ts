import { isAppUrl } from './app-origin';

/** What main knows about an IPC message's sender (taken from IpcMainInvokeEvent). */
export interface SenderFacts {
  /** webContents id of the sender. */
  webContentsId: number;
  /** True when the message comes from the top-level frame, not an iframe. */
  isMainFrame: boolean;
  /** URL of the sending frame; undefined when the frame is gone. */
  frameUrl: string | undefined;
}

/**
 * A bridge call is accepted only from the main frame of one of our own
 * windows while it shows our own page (app://privacy-desk/). Anything else
 * (an iframe, a window we did not create, a page that navigated away) is refused.
 */
export function isTrustedSender(sender: SenderFacts, trustedWebContentsIds: ReadonlySet<number>): boolean {
  return trustedWebContentsIds.has(sender.webContentsId) && sender.isMainFrame && sender.frameUrl !== undefined && isAppUrl(sender.frameUrl);
}

/**
 * An event goes to a window only while it is one of ours and its main frame
 * shows our own page: the same rule as for a sender, applied to the top frame.
 */
export function isTrustedRecipient(recipient: { webContentsId: number; mainFrameUrl: string | undefined }, trustedWebContentsIds: ReadonlySet<number>): boolean {
  return isTrustedSender({ webContentsId: recipient.webContentsId, isMainFrame: true, frameUrl: recipient.mainFrameUrl }, trustedWebContentsIds);
}
