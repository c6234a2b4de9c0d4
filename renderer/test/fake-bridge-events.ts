import type { BridgeEventName, BridgeEventPayload } from '../../shared/contract';
import type { BridgeEventClient } from '../bridge/bridge-event-client';

/** An in-memory BridgeEventClient: tests emit events by hand and can see who still listens. */
export function createFakeBridgeEvents() {
  const listeners = new Map<BridgeEventName, Set<(payload: unknown) => void>>();
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
  };
  return {
    client,
    emit<E extends BridgeEventName>(name: E, payload: BridgeEventPayload<E>) {
      for (const listener of [...(listeners.get(name) ?? [])]) listener(payload);
    },
    listenerCount: (name: BridgeEventName) => listeners.get(name)?.size ?? 0,
  };
}
