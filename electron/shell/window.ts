import { BrowserWindow } from 'electron';
import { APP_START_URL } from './app-origin';

/** The one console window, with every web-security default on. */
export function createMainWindow(options: { preloadPath: string; onClosed: (webContentsId: number) => void }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Privacy Desk',
    show: false,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // Middle-click would ask for a new window; setWindowOpenHandler denies it anyway, this stops it earlier.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  const id = window.webContents.id;
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => options.onClosed(id));
  void window.loadURL(APP_START_URL);
  return window;
}
