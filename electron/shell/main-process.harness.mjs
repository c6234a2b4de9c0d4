// Runs the BUILT Electron main process (dist-like main.cjs) in plain Node with a fake
// `electron` module, so its wiring is tested on machines without the Electron binary.
// Usage: node main-process.harness.mjs <path to main.cjs>; prints one JSON report.
import { EventEmitter } from 'node:events';
import { readFile } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const report = { ipcChannels: [], windows: [], externalOpened: [] };
const contentsHooks = [];
const protocolHandlers = {};
const ipcHandlers = {};
let permissionRequestHandler;
const sessionEvents = {};
let permissionCheckHandler;
let nextId = 1;
const contentsById = new Map();
// Windows the harness opens itself (a stranger) are not part of what main opened.
let recordWindows = true;
// The window side: what the preload exposes, and the IPC listeners it registers.
const rendererWorld = {};
const rendererListeners = new Map();
// Users pages held back until the harness lets them go: page number -> { reached, release, released }.
const heldPages = new Map();
const pagesAsked = [];

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
    const sent = [];
    this.webContents = Object.assign(new EventEmitter(), {
      id: nextId++,
      mainFrame,
      sent,
      isDestroyed: () => false,
      // Main → window: recorded, and delivered (later, as IPC is) to the preload attached to the first window.
      send: (channel, payload) => {
        sent.push(channel);
        if (this.webContents.id !== report.windows[0]?.id) return;
        queueMicrotask(() => {
          for (const listener of rendererListeners.get(channel) ?? []) listener({ sender: 'ipcRenderer' }, structuredClone(payload));
        });
      },
    });
    contentsById.set(this.webContents.id, this.webContents);
    if (!recordWindows) return;
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
      on: (name, fn) => (sessionEvents[name] = fn),
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
      const parsed = new URL(String(url));
      if (parsed.pathname.endsWith('/api/v1/users')) {
        const page = Number(parsed.searchParams.get('page'));
        pagesAsked.push(page);
        const held = heldPages.get(page);
        if (held) {
          heldPages.delete(page);
          held.reached();
          await held.released;
        }
      }
      return fetch(url, init);
    },
  },
  ipcMain: { handle: (channel, fn) => ((ipcHandlers[channel] = fn), report.ipcChannels.push(channel)) },
  webContents: { fromId: (id) => contentsById.get(id) },
  // The preload's side of electron, attached to the first window (the one main trusts).
  contextBridge: { exposeInMainWorld: (key, api) => (rendererWorld[key] = api) },
  ipcRenderer: {
    invoke: async (channel, input) => {
      const mainFrame = { url: report.loadedUrl };
      return structuredClone(await ipcHandlers[channel]({ sender: { id: report.windows[0].id, mainFrame }, senderFrame: mainFrame }, structuredClone(input)));
    },
    on: (channel, listener) => rendererListeners.set(channel, [...(rendererListeners.get(channel) ?? []), listener]),
    removeListener: (channel, listener) => rendererListeners.set(channel, (rendererListeners.get(channel) ?? []).filter((l) => l !== listener)),
  },
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

/** Holds the next request for this users page; `reached` resolves when it is asked for. */
function holdPage(page) {
  let release;
  let reachedResolve;
  const released = new Promise((resolve) => (release = resolve));
  const reached = new Promise((resolve) => (reachedResolve = resolve));
  heldPages.set(page, { reached: reachedResolve, released });
  return { reached, release };
}

/** Jobs through the built preload, as the window sees them: named subscriptions, then users.walk and jobs.cancel. */
async function runJobs(win) {
  createRequire(import.meta.url)(join(dirname(process.argv[2]), 'preload.cjs'));
  const api = rendererWorld.privacyDesk;
  const trustedContents = contentsById.get(win.id);
  recordWindows = false;
  const stranger = new BrowserWindow({ webPreferences: {} }); // a window main did not create, showing our page
  stranger.loadURL(report.loadedUrl);

  const progress = [];
  const finished = new Map();
  const waiting = new Map();
  api.events['job.progress']((payload) => progress.push(payload));
  api.events['job.finished']((payload) => {
    finished.set(payload.jobId, payload);
    waiting.get(payload.jobId)?.(payload);
  });
  const finishedOf = (jobId) => (finished.has(jobId) ? Promise.resolve(finished.get(jobId)) : new Promise((resolve) => waiting.set(jobId, resolve)));
  const progressOf = (jobId) => progress.filter((p) => p.jobId === jobId).map((p) => [p.page, p.totalPages, p.collected]);
  const jobs = { eventNames: Object.keys(api.events) };

  // A whole walk of the bundled sandbox's 500 users.
  pagesAsked.length = 0;
  const walk = await api['users.walk']({ profileId: 'sandbox', perPage: 100 });
  jobs.walk = { started: walk, finished: await finishedOf(walk.value.jobId), progress: progressOf(walk.value.jobId), pagesAsked: [...pagesAsked] };

  // A cancelled walk: page 2 is held until the cancel has been answered.
  pagesAsked.length = 0;
  const page2 = holdPage(2);
  const cancelled = await api['users.walk']({ profileId: 'sandbox', perPage: 100 });
  await page2.reached;
  const cancelAnswer = await api['jobs.cancel']({ jobId: cancelled.value.jobId });
  page2.release();
  jobs.cancel = {
    answer: cancelAnswer,
    finished: await finishedOf(cancelled.value.jobId),
    progress: progressOf(cancelled.value.jobId),
    pagesAsked: [...pagesAsked],
    again: await api['jobs.cancel']({ jobId: cancelled.value.jobId }),
  };

  // Our window on a foreign page gets nothing: page 1's progress is emitted while it shows evil.example.
  const page1 = holdPage(1);
  const page2Again = holdPage(2);
  const quiet = await api['users.walk']({ profileId: 'sandbox', perPage: 100 });
  await page1.reached;
  const sentBefore = trustedContents.sent.length;
  trustedContents.mainFrame.url = 'https://evil.example/';
  page1.release();
  await page2Again.reached; // page 1 has been reported (or not) by now
  jobs.foreignPage = { sentWhileForeign: trustedContents.sent.length - sentBefore };
  trustedContents.mainFrame.url = report.loadedUrl;
  page2Again.release();
  jobs.foreignPage.finished = await finishedOf(quiet.value.jobId);
  jobs.foreignPage.progressPages = progressOf(quiet.value.jobId).map(([page]) => page);

  jobs.channelsSentToOurWindow = [...new Set(trustedContents.sent)].sort();
  jobs.sentToStranger = stranger.webContents.sent.length;
  return jobs;
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

  report.jobs = await runJobs(win);

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

  // Downloads: only the window's own blobs (exports) may start; the save dialog is Electron's default.
  const download = (url) => {
    let prevented = false;
    sessionEvents['will-download']?.({ preventDefault: () => (prevented = true) }, { getURL: () => url, getFilename: () => 'export.csv' }, {});
    return prevented ? 'cancelled' : 'allowed';
  };
  report.downloads = {
    handled: typeof sessionEvents['will-download'] === 'function',
    ownBlob: download('blob:app://privacy-desk/0b7c6f8e-1d2a-4c1e-9f55-1b2c3d4e5f60'),
    foreignBlob: download('blob:https://evil.example/0b7c6f8e-1d2a-4c1e-9f55-1b2c3d4e5f60'),
    remote: download('https://evil.example/payload.exe'),
    appFile: download('app://privacy-desk/index.html'),
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
