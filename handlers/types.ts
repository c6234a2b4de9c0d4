import type { AppInfo, BridgeMethod, BridgeOutput, BridgeParsedInput } from '../shared/contract';
import type { Desk } from '../core/desk';
import type { JobRegistry } from './jobs';
import type { TeamControl } from './team-handlers';

export interface HandlerContext {
  /** The core's facade, shared with the CLI: handlers only map bridge input onto it. */
  desk: Desk;
  appInfo: () => AppInfo;
  /** Long work (users.walk…) runs here and reports through the runtime's event hub. */
  jobs: JobRegistry;
  /** Team mode switched from the console (the app runtime); absent: shown only. */
  team?: TeamControl;
}

/** One handler per contract method; a missing method is a compile error. */
export type BridgeHandlers = { [M in BridgeMethod]: (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>> };

/** The handlers of one area (profiles, users…), merged into BridgeHandlers. */
export type AreaHandlers<M extends BridgeMethod> = Pick<BridgeHandlers, M>;
