import { MAIN_PROCESS_GONE } from '../../shared/bridge-methods';
import type { BridgeEventName, BridgeMethod, BridgeResponse } from '../../shared/contract';
import { PrivacyDeskError, toErrorInfo } from '../../shared/errors';
import { msg } from '../../shared/messages';
import { createContactState } from './host-contact';
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

/** While someone listens for events, main is asked a cheap question this often… */
export const MAIN_PING_EVERY_MS = 5000;
/** …and an answer missing for this long is a loss of contact (main hung: its events would stop without a word). */
export const MAIN_SILENCE_MS = 15_000;

/**
 * Events from the main process through the preload's named subscriptions; IPC needs no connection, so it is
 * always ready. Main's end closes the window with it, but a main process that stops answering would leave a
 * running job's screen saying "Running" forever: while someone listens, `app.info` is asked every few seconds,
 * and no answer for MAIN_SILENCE_MS is a loss of contact (since the last answer), until main answers again.
 */
export function createIpcEventTransport(bridge: PreloadBridge | undefined = window.privacyDesk): BridgeEventTransport {
  if (!bridge) throw new Error('The Electron bridge is missing: createIpcEventTransport needs window.privacyDesk.');
  const contact = createContactState();
  let subscriptions = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let lastAnswerAt = Date.now();
  let asking = false;

  const ping = () => {
    if (Date.now() - lastAnswerAt >= MAIN_SILENCE_MS) contact.lost(lastAnswerAt);
    if (asking || typeof bridge['app.info'] !== 'function') return;
    asking = true;
    const answered = () => {
      asking = false;
      lastAnswerAt = Date.now();
      contact.connected();
    };
    // Any answer, even a refusal, says main is there; a rejection is the preload's "main is gone".
    bridge['app.info']({}).then(answered, () => {
      asking = false;
      contact.lost(lastAnswerAt);
    });
  };

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
      const stop = subscribe(listener);
      subscriptions += 1;
      if (!timer) {
        lastAnswerAt = Date.now();
        timer = setInterval(ping, MAIN_PING_EVERY_MS);
      }
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        stop();
        subscriptions -= 1;
        if (subscriptions === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    ready: async () => {},
    contact,
  };
}
