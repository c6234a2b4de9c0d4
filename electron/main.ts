import { join } from 'node:path';
import { app, BrowserWindow, dialog, Menu, net, session, webContents } from 'electron';
import { toErrorInfo } from '../shared/errors';
import { resolveDataDir } from '../core/data-dir';
import { startAppRuntime, type AppRuntime } from '../app-runtime/app-runtime';
import { serveAppProtocol, registerAppScheme } from './shell/app-protocol';
import { allowOnlyOwnDownloads, denyAllPermissions, installWebContentsGuards } from './shell/hardening';
import { forwardBridgeEvents, registerBridgeIpc } from './shell/ipc';
import { appMenuTemplate } from './shell/menu-template';
import { createMainWindow } from './shell/window';

/**
 * The Electron shell: windows, protocol, IPC and lifecycle only. Everything
 * else is the same runtime the web host uses (app-runtime/app-runtime.ts).
 * Bundled to dist/electron/main.cjs, so __dirname is dist/electron.
 */

const RENDERER_DIR = join(__dirname, '..', 'renderer');
const PRELOAD_PATH = join(__dirname, 'preload.cjs');

const trustedWebContentsIds = new Set<number>();
let mainWindow: BrowserWindow | null = null;
let runtime: AppRuntime | null = null;
let shutdownDone = false;

function openWindow(): void {
  mainWindow = createMainWindow({
    preloadPath: PRELOAD_PATH,
    onClosed: (id) => {
      trustedWebContentsIds.delete(id);
      mainWindow = null;
    },
  });
  trustedWebContentsIds.add(mainWindow.webContents.id);
}

async function start(): Promise<void> {
  denyAllPermissions(session.defaultSession);
  allowOnlyOwnDownloads(session.defaultSession);
  serveAppProtocol(RENDERER_DIR);
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ isDev: !app.isPackaged, isMac: process.platform === 'darwin' })));
  runtime = await startAppRuntime({
    // Electron's network stack: system proxy settings and certificate store, as the operator expects.
    fetch: (input, init) => net.fetch(typeof input === 'string' ? input : input.toString(), init),
    version: app.getVersion(),
    locale: app.getLocale(),
  });
  registerBridgeIpc(runtime.handlers, trustedWebContentsIds);
  forwardBridgeEvents(runtime.events, trustedWebContentsIds, (id) => webContents.fromId(id));
  openWindow();
}

// Chromium's own files go under our data folder (which the CLI shares). This also keys the
// single-instance lock on it, so runs with different PRIVACY_DESK_DATA_DIR (tests) do not collide.
app.setPath('userData', join(resolveDataDir(), 'electron'));

if (!app.requestSingleInstanceLock()) {
  // Another Privacy Desk is running: it gets focused (below, in that process) and this one leaves.
  app.quit();
} else {
  registerAppScheme();
  installWebContentsGuards();

  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('window-all-closed', () => app.quit());

  // Stop the bundled sandbox before leaving; quit again once it is closed.
  app.on('before-quit', (event) => {
    if (shutdownDone || !runtime) return;
    event.preventDefault();
    const closing = runtime;
    runtime = null;
    void closing.close().finally(() => {
      shutdownDone = true;
      app.quit();
    });
  });

  app.whenReady().then(start).catch((error: unknown) => {
    const info = toErrorInfo(error);
    const detail = info.code === 'INTERNAL' && error instanceof Error ? error.message : info.message;
    dialog.showErrorBox('Privacy Desk could not start', detail);
    app.exit(1);
  });
}
