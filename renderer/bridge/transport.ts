import type { BridgeEventName, BridgeInput, BridgeMethod, BridgeOutput, BridgeResponse } from '../../shared/contract';
import type { HostContactWatch } from './host-contact';

/** Carries one bridge call to the main process; never rejects for a handled error. */
export type BridgeTransport = <M extends BridgeMethod>(
  method: M,
  input: BridgeInput<M>,
) => Promise<BridgeResponse<BridgeOutput<M>>>;

/** Ends one subscription; calling it again does nothing. */
export type Unsubscribe = () => void;

/** Carries main → window events to the page. Payloads are unchecked here: the event client parses them. */
export interface BridgeEventTransport {
  subscribe(event: BridgeEventName, listener: (payload: unknown) => void): Unsubscribe;
  /** Resolves once events sent from now on reach the subscribers; rejects with a PrivacyDeskError when they cannot. */
  ready(): Promise<void>;
  /** Whether the host is heard now (host-contact.ts); a transport without one is taken as always connected. */
  contact?: HostContactWatch;
}
