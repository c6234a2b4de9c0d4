import { BRIDGE_METHODS, type BridgeClient, type BridgeMethod } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { createHttpTransport } from './http-transport';
import { createIpcTransport, hasIpcBridge } from './ipc-transport';
import type { BridgeTransport } from './transport';

/**
 * Wraps a transport into the typed BridgeClient: every `ok: false` answer
 * becomes a thrown PrivacyDeskError, so TanStack Query sees ordinary failures.
 */
export function createBridgeClient(transport: BridgeTransport): BridgeClient {
  const entries = BRIDGE_METHODS.map((method) => [
    method,
    async (input: unknown) => {
      const response = await transport(method, input as never);
      if (!response.ok) throw new PrivacyDeskError(response.error);
      return response.value;
    },
  ]);
  return Object.fromEntries(entries) as Record<BridgeMethod, unknown> as BridgeClient;
}

/** Electron's preload bridge when it exists, otherwise the loopback web host. */
export function createDefaultBridgeClient(): BridgeClient {
  return createBridgeClient(hasIpcBridge() ? createIpcTransport() : createHttpTransport());
}
