import { BRIDGE_METHODS, bridgeContract, type BridgeClient, type BridgeMethod, type BridgeOutput, type BridgeParsedInput } from '../../shared/contract';
import { PrivacyDeskError } from '../../shared/errors';
import { msg } from '../../shared/messages';

/** What the fake does for one method, given the input as the contract parsed it (defaults applied). */
export type FakeBehaviour<M extends BridgeMethod> = (input: BridgeParsedInput<M>) => Promise<BridgeOutput<M>>;

/** A behaviour for every method of the contract: a method added to the contract and not here fails `tsc`. */
export type FakeBehaviours = { [M in BridgeMethod]: FakeBehaviour<M> };

/**
 * The fake's BridgeClient, derived from the contract: every method the contract names, its input parsed by the
 * method's own schema as the real dispatcher does (handlers/dispatch.ts), so a screen that sends what the real
 * bridge would refuse fails its test with INVALID_INPUT. `before` sees every call first (the call log and
 * one-shot failures), with the input as the screen sent it.
 */
export function deriveFakeClient(behaviours: FakeBehaviours, before: (method: BridgeMethod, input: unknown) => void): BridgeClient {
  const call = async (method: BridgeMethod, input: unknown): Promise<unknown> => {
    before(method, input);
    const parsed = bridgeContract[method].input.safeParse(input === undefined ? {} : input);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join('.') || '/'))].join(', ');
      throw new PrivacyDeskError({ code: 'INVALID_INPUT', text: msg('bridge.badInput', { method, fields }) });
    }
    return (behaviours[method] as (input: unknown) => Promise<unknown>)(parsed.data);
  };
  return Object.fromEntries(BRIDGE_METHODS.map((method) => [method, (input: unknown) => call(method, input)])) as BridgeClient;
}
