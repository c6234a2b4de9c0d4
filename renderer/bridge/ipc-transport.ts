import type { BridgeMethod, BridgeResponse } from '../../shared/contract';
import type { BridgeTransport } from './transport';

/** What the Electron preload exposes: one named function per bridge method. */
export type PreloadBridge = Record<BridgeMethod, (input: unknown) => Promise<BridgeResponse<unknown>>>;

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
      return {
        ok: false,
        error: {
          code: 'INTERNAL',
          message: `This version of Privacy Desk has no "${method}" action. Restart the app; if it persists, reinstall it.`,
        },
      };
    }
    try {
      return await call(input);
    } catch {
      // The preload should never reject; if it does (e.g. the main process crashed), say what to do.
      return {
        ok: false,
        error: { code: 'INTERNAL', message: 'The Privacy Desk main process did not answer. Restart the app and try again.' },
      };
    }
  }) as BridgeTransport;
}
