import type { BridgeEvent, BridgeEventName, BridgeEventPayload } from '../shared/contract';

/** Where handlers and jobs send events; the runtime fans them out to every open window or stream. */
export type BridgeEventSink = <E extends BridgeEventName>(name: E, payload: BridgeEventPayload<E>) => void;

export interface BridgeEventHub {
  emit: BridgeEventSink;
  /** Each transport subscribes while it has a window or stream to deliver to. */
  subscribe(listener: (event: BridgeEvent) => void): () => void;
}

/**
 * A synchronous fan-out: a listener that throws is reported by kind and
 * skipped, so one broken window or stream never stops a job or the others.
 */
export function createBridgeEventHub(): BridgeEventHub {
  const listeners = new Set<(event: BridgeEvent) => void>();
  return {
    emit(name, payload) {
      const event = { name, payload } as BridgeEvent;
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          console.error(`[privacy-desk] delivering ${name} failed with ${error instanceof Error ? error.name : typeof error}`);
        }
      }
    },
    subscribe(listener) {
      // A wrapper per subscription: the same function subscribed twice is two subscriptions.
      const entry = (event: BridgeEvent) => listener(event);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
  };
}
