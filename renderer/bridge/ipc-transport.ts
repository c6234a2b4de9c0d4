import { MAIN_PROCESS_GONE } from '../../shared/bridge-methods';
import type { BridgeEventName, BridgeMethod, BridgeResponse } from '../../shared/contract';
import { PrivacyDeskError, toErrorInfo } from '../../shared/errors';
import { msg } from '../../shared/messages';
import type { BridgeEventTransport, BridgeTransport } from './transport';

/**
 * What the Electron preload exposes: one named function per bridge method,
 * and under `events` one named subscription per event (it answers the
 * function that ends the subscription).
 */
export type PreloadBridge = Record<BridgeMethod, (input: unknown) => Promise<BridgeResponse<unknown>>> & {
  events: Record<BridgeEventName, (listener: (payload: unknown) => void) => () => void>;
};

declare global {
  interface Window {
    privacyDesk?: PreloadBridge;
  }
}

export function hasIpcBridge(): boolean {
  return typeof window !== 'undefined' && typeof window.privacyDesk === 'object' && window.privacyDesk !== null;
}

export function createIpcTransport(bridge: PreloadBridge | undefined = window.privacyDesk): BridgeTransport {
  if (!bridge) throw new Error('The Electron bridge is missing: createIpcTransport needs window.privacyDesk.');
  return (async (method, input) => {
    const call = bridge[method];
    if (typeof call !== 'function') {
      return { ok: false, error: toErrorInfo(new PrivacyDeskError({ code: 'INTERNAL', outcome: 'not-sent', text: msg('bridge.appUnknownAction', { method }) })) };
    }
    try {
      return await call(input);
    } catch {
      // The preload should never reject; if it does (e.g. the main process crashed), say what to do.
      return { ok: false, error: { ...MAIN_PROCESS_GONE } };
    }
  }) as BridgeTransport;
}

/** Events from the main process through the preload's named subscriptions; IPC needs no connection, so it is always ready. */
export function createIpcEventTransport(bridge: PreloadBridge | undefined = window.privacyDesk): BridgeEventTransport {
  if (!bridge) throw new Error('The Electron bridge is missing: createIpcEventTransport needs window.privacyDesk.');
  return {
    subscribe(event, listener) {
      const subscribe = bridge.events?.[event];
      if (typeof subscribe !== 'function') {
        throw new PrivacyDeskError({
          code: 'INTERNAL',
          outcome: 'not-sent',
          text: msg('bridge.appUnknownEvent', { event }),
        });
      }
      return subscribe(listener);
    },
    ready: async () => {},
  };
}
