import type { PauseSwitch } from './batch-types';

/** The operator's pause button for one run: items in flight finish, nothing new starts while paused. */
export function createPauseSwitch(): PauseSwitch {
  let paused = false;
  let waiters: (() => void)[] = [];
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    get paused() {
      return paused;
    },
    pause() {
      if (paused) return;
      paused = true;
      changed();
    },
    resume() {
      if (!paused) return;
      paused = false;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
      changed();
    },
    whileRunning(signal) {
      if (!paused || signal?.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          signal?.removeEventListener('abort', done);
          resolve();
        };
        waiters.push(done);
        signal?.addEventListener('abort', done, { once: true });
      });
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
