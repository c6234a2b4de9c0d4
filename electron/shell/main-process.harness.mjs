// Runs the BUILT Electron main process (dist-like main.cjs) in plain Node with a fake
// `electron` module, so its wiring is tested on machines without the Electron binary.
// Usage: node main-process.harness.mjs <path to main.cjs>; prints one JSON report.
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const report = { ipcChannels: [], windows: [], externalOpened: [] };
const contentsHooks = [];
const protocolHandlers = {};
const ipcHandlers = {};
let permissionRequestHandler;
let permissionCheckHandler;
let nextId = 1;

const app = new EventEmitter();
let markReady;
const ready = new Promise((resolve) => (markReady = resolve));
Object.assign(app, {
  isPackaged: false,
  setPath: (name, path) => (report.userData = { name, path }),
  requestSingleInstanceLock: () => true,
  whenReady: () => ready,
  getVersion: () => '1.2.3',
  getLocale: () => 'fr-FR',
  quit() {
    const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
    app.emit('before-quit', event);
    if (!event.defaultPrevented) report.quitted = true;
  },
  exit: (code) => (report.exitCode = code),
});

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    const mainFrame = { url: '' };
    this.webContents = Object.assign(new EventEmitter(), { id: nextId++, mainFrame });
    const hooks = { events: {}, windowOpen: undefined };
    this.webContents.setWindowOpenHandler = (fn) => (hooks.windowOpen = fn);
    const on = this.webContents.on.bind(this.webContents);
    this.webContents.on = (name, fn) => ((hooks.events[name] = fn), on(name, fn));
    contentsHooks.push(hooks);
    app.emit('web-contents-created', {}, this.webContents);
    report.windows.push({ webPreferences: options.webPreferences, id: this.webContents.id });
    this.window = { mainFrame };
  }
  loadURL(url) {
    this.webContents.mainFrame.url = url;
    report.loadedUrl = url;
    return Promise.resolve();
  }
  isMinimized() { return false; }
  focus() {}
  restore() {}
}

const electron = {
  app,
  BrowserWindow,
  Menu: { buildFromTemplate: (t) => t, setApplicationMenu: (m) => (report.menuLabels = m.map((i) => i.label ?? i.role)) },
  dialog: { showErrorBox: (title, text) => (report.errorBox = `${title}: ${text}`) },
  shell: { openExternal: async (url) => report.externalOpened.push(url) },
  session: {
    defaultSession: {
      setPermissionRequestHandler: (fn) => (permissionRequestHandler = fn),
      setPermissionCheckHandler: (fn) => (permissionCheckHandler = fn),
    },
  },
  protocol: {
    registerSchemesAsPrivileged: (schemes) => (report.schemes = schemes),
    handle: (scheme, fn) => (protocolHandlers[scheme] = fn),
  },
  net: {
    // Electron's net.fetch reads file: URLs; Node's fetch does not, so do it here.
    fetch: async (url, init) => {
      if (String(url).startsWith('file:')) {
        try {
          return new Response(await readFile(fileURLToPath(url)));
        } catch {
          throw new Error('net::ERR_FILE_NOT_FOUND');
        }
      }
      report.netFetchUsed = true;
      return fetch(url, init);
    },
  },
  ipcMain: { handle: (channel, fn) => ((ipcHandlers[channel] = fn), report.ipcChannels.push(channel)) },
};

const originalLoad = Module._load;
Module._load = function load(request, ...rest) {
  return request === 'electron' ? electron : originalLoad.call(this, request, ...rest);
};

async function until(check, what) {
  for (let i = 0; i < 200; i += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}; ${JSON.stringify(report)}`);
}

async function main() {
  createRequire(import.meta.url)(process.argv[2]);
  markReady();
  await until(() => report.windows.length === 1 || report.errorBox, 'the window');
  if (report.errorBox) throw new Error(report.errorBox);
  const win = report.windows[0];
  const frame = { url: report.loadedUrl };

  // Permissions: every request denied, every check false.
  await new Promise((resolve) => permissionRequestHandler({}, 'media', (granted) => ((report.permissionGranted = granted), resolve())));
  report.permissionCheck = permissionCheckHandler({}, 'clipboard-read');

  // The app:// protocol.
  const serve = async (url, method = 'GET') => {
    const response = await protocolHandlers.app(new Request(url, { method }));
    return { status: response.status, csp: response.headers.get('content-security-policy'), type: response.headers.get('content-type'), body: await response.text() };
  };
  report.protocol = {
    index: await serve('app://privacy-desk/index.html'),
    missing: await serve('app://privacy-desk/nothing-here.js'),
    traversal: await serve('app://privacy-desk/..%2f..%2fpackage.json'),
    post: await serve('app://privacy-desk/index.html', 'POST'),
  };

  // IPC: trusted and untrusted senders.
  const mainFrame = { url: report.loadedUrl };
  const trusted = { sender: { id: win.id, mainFrame }, senderFrame: mainFrame };
  const invoke = (method, input, event = trusted) => ipcHandlers[`privacy-desk:${method}`](event, input);
  report.ipc = {
    appInfo: await invoke('app.info', {}),
    users: await invoke('users.list', { profileId: 'sandbox', perPage: 2 }),
    badInput: await invoke('users.list', { profileId: 'sandbox', perPage: 5000 }),
    otherWindow: await invoke('app.info', {}, { sender: { id: win.id + 100, mainFrame }, senderFrame: mainFrame }),
    iframe: await invoke('app.info', {}, { sender: { id: win.id, mainFrame }, senderFrame: { url: report.loadedUrl } }),
    foreignPage: await invoke('app.info', {}, { sender: { id: win.id, mainFrame: frame }, senderFrame: Object.assign(frame, { url: 'https://evil.example/' }) }),
  };

  // Navigation and window guards.
  const hooks = contentsHooks[0];
  report.windowOpen = {
    https: hooks.windowOpen({ url: 'https://docs.example.org/' }),
    file: hooks.windowOpen({ url: 'file:///etc/passwd' }),
  };
  const navigate = (name, url) => {
    let prevented = false;
    hooks.events[name]({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  report.navigationBlocked = {
    foreign: navigate('will-navigate', 'https://evil.example/'),
    app: navigate('will-navigate', 'app://privacy-desk/index.html'),
    redirect: navigate('will-redirect', 'http://127.0.0.1:1/'),
    webview: (() => { let p = false; hooks.events['will-attach-webview']({ preventDefault: () => (p = true) }); return p; })(),
  };

  // Quitting stops the bundled sandbox first.
  const sandboxUrl = report.ipc.appInfo.value?.sandboxUrl;
  app.quit();
  await until(() => report.quitted, 'the quit');
  report.sandboxStoppedOnQuit = await fetch(`${sandboxUrl}/sandbox/`).then(() => false, () => true);
  process.stdout.write(JSON.stringify(report));
  process.exit(0);
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
