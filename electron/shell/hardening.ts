import { app, shell, type Session } from 'electron';
import { externalUrlToOpen, isAppUrl, isOwnBlobUrl } from './app-origin';

/**
 * One global guard for every webContents the app will ever have: no new
 * windows (https links go to the OS browser instead), no navigation away
 * from the app's origin, no <webview>.
 */
export function installWebContentsGuards(): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      const external = externalUrlToOpen(url);
      if (external) void shell.openExternal(external);
      return { action: 'deny' };
    });
    const blockForeign = (event: { preventDefault(): void }, url: string) => {
      if (!isAppUrl(url)) event.preventDefault();
    };
    contents.on('will-navigate', blockForeign);
    contents.on('will-redirect', blockForeign);
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** The console needs no camera, notifications, clipboard-read, geolocation…: every permission is refused. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * The window saves exports (audit CSV and JSON, receipts) through <a download> of a blob it made;
 * with no save path set here, Electron asks where to save with the system dialog. Any other
 * download (a link to a remote file, another origin's blob) is cancelled before it starts.
 */
export function allowOnlyOwnDownloads(session: Session): void {
  session.on('will-download', (event, item) => {
    if (!isOwnBlobUrl(item.getURL())) event.preventDefault();
  });
}
