import type { BridgeInput, BridgeMethod, BridgeOutput, BridgeResponse } from '../../shared/contract';

/** Carries one bridge call to the main process; never rejects for a handled error. */
export type BridgeTransport = <M extends BridgeMethod>(
  method: M,
  input: BridgeInput<M>,
) => Promise<BridgeResponse<BridgeOutput<M>>>;
