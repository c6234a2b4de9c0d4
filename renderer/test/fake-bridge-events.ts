import type { BridgeEventName, BridgeEventPayload } from '../../shared/contract';
import type { BridgeEventClient } from '../bridge/bridge-event-client';
import { createContactState } from '../bridge/host-contact';

/** An in-memory BridgeEventClient: tests emit events by hand and can see who still listens. */
export function createFakeBridgeEvents() {
  const listeners = new Map<BridgeEventName, Set<(payload: unknown) => void>>();
  const contact = createContactState();
  const client: BridgeEventClient = {
    subscribe(event, listener) {
      const entry = (payload: unknown) => listener(payload as Parameters<typeof listener>[0]);
      const set = listeners.get(event) ?? new Set();
      set.add(entry);
      listeners.set(event, set);
      return () => {
        set.delete(entry);
      };
    },
    ready: async () => {},
    contact: contact.current,
    onContact: contact.watch,
  };
  return {
    client,
    emit<E extends BridgeEventName>(name: E, payload: BridgeEventPayload<E>) {
      // As a lost event stream: nothing reaches the window while the host is not heard.
      if (contact.current().state === 'lost') return;
      for (const listener of [...(listeners.get(name) ?? [])]) listener(payload);
    },
    listenerCount: (name: BridgeEventName) => listeners.get(name)?.size ?? 0,
    /** The host stops being heard (killed, hung): last heard at `lastHeardAt`. */
    loseContact: (lastHeardAt: Date) => contact.lost(lastHeardAt.getTime()),
    /** The host is heard again (its event stream opened anew). */
    regainContact: () => contact.connected(),
  };
}
