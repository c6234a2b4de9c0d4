import { contextBridge, ipcRenderer } from 'electron';
import { BRIDGE_CHANNEL_PREFIX, BRIDGE_METHOD_NAMES } from '../shared/bridge-methods';

/**
 * Sandboxed preload: exposes `window.privacyDesk` with one named function per
 * bridge method and nothing else (no channel argument, no ipcRenderer).
 * Main always answers with a BridgeResponse; the catch covers a main process
 * that is gone, so the promise still never rejects.
 */
const bridge = Object.fromEntries(
  BRIDGE_METHOD_NAMES.map((method) => [
    method,
    (input?: unknown) =>
      ipcRenderer.invoke(BRIDGE_CHANNEL_PREFIX + method, input).catch(() => ({
        ok: false,
        error: { code: 'INTERNAL', message: 'The Privacy Desk main process did not answer. Restart the app and try again.' },
      })),
  ]),
);

contextBridge.exposeInMainWorld('privacyDesk', bridge);
