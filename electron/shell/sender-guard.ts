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
