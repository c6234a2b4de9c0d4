import { useSyncExternalStore } from 'react';
import { useOptionalBridgeEvents } from './bridge-context';
import { CONNECTED, type HostContact } from './host-contact';

const noWatch = () => () => {};
const connected = () => CONNECTED;

/** Whether the host is heard now (the event client's contact); a window without events is taken as connected. */
export function useHostContact(): HostContact {
  const events = useOptionalBridgeEvents();
  return useSyncExternalStore(events ? events.onContact : noWatch, events ? events.contact : connected, connected);
}
