import type { Unsubscribe } from './transport';

/**
 * Whether the page hears from Privacy Desk's host (the web host, or Electron's main process) now. Lost: since
 * when it was last heard. Nothing it said of a running job can be trusted to be still true after that.
 */
export type HostContact = { state: 'connected' } | { state: 'lost'; since: string };

export const CONNECTED: HostContact = Object.freeze({ state: 'connected' });

export interface HostContactWatch {
  current(): HostContact;
  /** Calls `listener` on each change from now on. */
  watch(listener: (contact: HostContact) => void): Unsubscribe;
}

/** One contact state and its watchers: a transport says lost (since when it last heard the host) or connected. */
export function createContactState(): HostContactWatch & { lost(lastHeardAt: number): void; connected(): void } {
  let contact: HostContact = CONNECTED;
  const watchers = new Set<(contact: HostContact) => void>();
  const set = (next: HostContact) => {
    contact = next;
    for (const watcher of [...watchers]) watcher(next);
  };
  return {
    current: () => contact,
    watch(listener) {
      watchers.add(listener);
      return () => void watchers.delete(listener);
    },
    lost(lastHeardAt) {
      if (contact.state === 'connected') set({ state: 'lost', since: new Date(lastHeardAt).toISOString() });
    },
    connected() {
      if (contact.state === 'lost') set(CONNECTED);
    },
  };
}
