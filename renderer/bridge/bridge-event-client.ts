import { bridgeEvents, type BridgeEventListener, type BridgeEventName } from '../../shared/contract';
import { CONNECTED, type HostContact } from './host-contact';
import { createHttpEventTransport } from './http-event-transport';
import { createIpcEventTransport, hasIpcBridge } from './ipc-transport';
import type { BridgeEventTransport, Unsubscribe } from './transport';

/** The page's typed view of the main → window events. */
export interface BridgeEventClient {
  /** Calls `listener` with every `event` payload from now on, until the answered function is called. */
  subscribe<E extends BridgeEventName>(event: E, listener: BridgeEventListener<E>): Unsubscribe;
  /** Resolves once events sent from now on reach subscribers (the web host's stream is open); rejects with a PrivacyDeskError when they cannot. */
  ready(): Promise<void>;
  /** Whether the host is heard now; lost: events may be missed, and what a running job was last said to be is no longer known. */
  contact(): HostContact;
  /** Calls `listener` when the contact is lost or comes back. */
  onContact(listener: (contact: HostContact) => void): Unsubscribe;
}

/**
 * Wraps an event transport: each payload is parsed with its schema from the
 * contract before any listener sees it; one that does not match is dropped
 * (and named in the console), never passed on half-formed.
 */
export function createBridgeEventClient(transport: BridgeEventTransport): BridgeEventClient {
  return {
    subscribe(event, listener) {
      let active = true;
      const stop = transport.subscribe(event, (payload) => {
        if (!active) return;
        const parsed = bridgeEvents[event].safeParse(payload);
        if (!parsed.success) {
          console.warn(`[privacy-desk] dropped a malformed "${event}" event`);
          return;
        }
        listener(parsed.data as Parameters<typeof listener>[0]);
      });
      return () => {
        if (!active) return;
        active = false;
        stop();
      };
    },
    ready: () => transport.ready(),
    contact: () => transport.contact?.current() ?? CONNECTED,
    onContact: (listener) => transport.contact?.watch(listener) ?? (() => {}),
  };
}

/** Electron's preload bridge when it exists, otherwise the loopback web host's event stream. */
export function createDefaultBridgeEventClient(): BridgeEventClient {
  return createBridgeEventClient(hasIpcBridge() ? createIpcEventTransport() : createHttpEventTransport());
}
