import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_CHANNEL_PREFIX, BRIDGE_EVENT_CHANNEL_PREFIX, BRIDGE_EVENT_NAMES, BRIDGE_METHOD_NAMES, MAIN_PROCESS_GONE } from '../shared/bridge-methods';

/**
 * Sandboxed preload: exposes `window.privacyDesk` with one named function per
 * bridge method and, under `events`, one named subscription per event —
 * nothing else (no channel argument, no ipcRenderer).
 * Main always answers with a BridgeResponse; the catch covers a main process
 * that is gone, so the promise still never rejects.
 */
const methods = Object.fromEntries(
  BRIDGE_METHOD_NAMES.map((method) => [
    method,
    (input?: unknown) => ipcRenderer.invoke(BRIDGE_CHANNEL_PREFIX + method, input).catch(() => ({ ok: false, error: { ...MAIN_PROCESS_GONE } })),
  ]),
);

/**
 * `privacyDesk.events['job.progress'](listener)` answers the function that
 * ends the subscription (a function passed back over the context bridge is a
 * new proxy each time, so "remove this listener" could not work). The
 * listener gets the payload only, never Electron's event object, which holds
 * ipcRenderer.
 */
const events = Object.fromEntries(
  BRIDGE_EVENT_NAMES.map((name) => {
    const channel = BRIDGE_EVENT_CHANNEL_PREFIX + name;
    const subscribe = (listener: (payload: unknown) => void) => {
      if (typeof listener !== 'function') throw new TypeError(`privacyDesk.events['${name}'] needs a function to call.`);
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(channel, forward);
      return () => {
        ipcRenderer.removeListener(channel, forward);
      };
    };
    return [name, subscribe];
  }),
);

contextBridge.exposeInMainWorld('privacyDesk', { ...methods, events });
