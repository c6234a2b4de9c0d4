/**
 * The bridge's method names, and nothing else: the sandboxed preload imports
 * this file alone (no zod), so it stays tiny. shared/contract.ts checks at
 * compile time that this list and the contract's methods are the same set.
 */
export const BRIDGE_METHOD_NAMES = [
  'app.info',
  'profiles.list',
  'profiles.save',
  'profiles.remove',
  'profiles.setActive',
  'profiles.testConnection',
  'users.list',
  'users.erase',
  'logout.preview',
  'logout.send',
  'logout.verify',
  'sandbox.userState',
  'audit.list',
] as const;

export type BridgeMethodName = (typeof BRIDGE_METHOD_NAMES)[number];

/** The IPC channel of one method: a fixed prefix so main can ignore every other channel. */
export const BRIDGE_CHANNEL_PREFIX = 'privacy-desk:';
