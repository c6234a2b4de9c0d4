/**
 * The names of the events the main process sends to the window, and nothing
 * else: the sandboxed preload imports this file alone (no zod). Each name's
 * payload schema lives in shared/contract.ts (`bridgeEvents`), which checks at
 * compile time that it names exactly these events.
 */
export const BRIDGE_EVENT_NAMES = ['job.progress', 'job.finished'] as const;

export type BridgeEventName = (typeof BRIDGE_EVENT_NAMES)[number];

/** The IPC channel of one event: a fixed prefix, so the preload listens on these channels and no other. */
export const BRIDGE_EVENT_CHANNEL_PREFIX = 'privacy-desk-event:';
