import { createContext, useContext, type ReactNode } from 'react';
import type { BridgeClient } from '../../shared/contract';
import type { BridgeEventClient } from './bridge-event-client';

const BridgeContext = createContext<BridgeClient | null>(null);
const BridgeEventsContext = createContext<BridgeEventClient | null>(null);

/** `events` (createDefaultBridgeEventClient) is needed only by screens that follow jobs. */
export function BridgeProvider({ client, events, children }: { client: BridgeClient; events?: BridgeEventClient; children: ReactNode }) {
  return (
    <BridgeContext.Provider value={client}>
      <BridgeEventsContext.Provider value={events ?? null}>{children}</BridgeEventsContext.Provider>
    </BridgeContext.Provider>
  );
}

export function useBridge(): BridgeClient {
  const client = useContext(BridgeContext);
  if (!client) throw new Error('useBridge() needs a <BridgeProvider> above it.');
  return client;
}

export function useBridgeEvents(): BridgeEventClient {
  const events = useContext(BridgeEventsContext);
  if (!events) throw new Error('useBridgeEvents() needs a <BridgeProvider events={…}> above it.');
  return events;
}

/** The event client when there is one (a screen that can do without jobs renders without it). */
export function useOptionalBridgeEvents(): BridgeEventClient | null {
  return useContext(BridgeEventsContext);
}
