import type { ErrorInfo } from './errors';

/**
 * The bridge's method and event names and the IPC transport's fixed strings:
 * the sandboxed preload imports this file alone (only types from elsewhere,
 * so no zod) and stays tiny. shared/contract.ts checks at compile time that
 * these lists and the contract name the same methods and events.
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
  'logout.conformance',
  'sandbox.userState',
  'sandbox.simulateLogin',
  'audit.list',
  'audit.read',
  'audit.readPage',
  'audit.source',
  'audit.queryPage',
  'audit.verify',
  'audit.acknowledge',
  'audit.export',
  'audit.receipt',
  'users.walk',
  'users.index',
  'users.search',
  'users.lookup',
  'users.forgetIndex',
  'users.erasedSince',
  'jobs.cancel',
  'batch.preview',
  'batch.discard',
  'batch.check',
  'batch.start',
  'batch.resume',
  'batch.retryCheck',
  'batch.retry',
  'batch.setPaused',
  'batch.list',
  'batch.get',
  'batch.results',
  'requests.list',
  'requests.get',
  'requests.create',
  'requests.apply',
  'requests.acts',
  'requests.dueCount',
  'requests.settings',
  'requests.saveSettings',
  'requests.answerPack',
  'reconcile.start',
  'reconcile.rows',
  'reconcile.export',
  'reconcile.orphanList',
  'team.status',
  'team.connect',
  'team.disconnect',
  'team.importPreview',
  'team.import',
] as const;

export type BridgeMethodName = (typeof BRIDGE_METHOD_NAMES)[number];

/** The IPC channel of one method: a fixed prefix so main can ignore every other channel. */
export const BRIDGE_CHANNEL_PREFIX = 'privacy-desk:';

/** The events main sends to the window; their payload schemas are `bridgeEvents` in shared/contract.ts. */
export const BRIDGE_EVENT_NAMES = ['job.progress', 'job.finished'] as const;

export type BridgeEventName = (typeof BRIDGE_EVENT_NAMES)[number];

/** The IPC channel of one event: a fixed prefix, so the preload listens on these channels and no other. */
export const BRIDGE_EVENT_CHANNEL_PREFIX = 'privacy-desk-event:';

/** The answer when an IPC call got no reply (the main process crashed or is quitting). It may have run: outcome unknown. */
export const MAIN_PROCESS_GONE = {
  code: 'INTERNAL',
  outcome: 'unknown',
  message: 'The Privacy Desk main process did not answer. Restart the app and try again.',
  // The catalogue's id, written out: this file imports nothing (the preload reads it), so not msg() from shared/messages.
  text: { id: 'bridge.mainGone' },
} as const satisfies ErrorInfo;
