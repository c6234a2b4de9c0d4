// Sandboxes shared by the parts: one per size (and per lane, for runs side by side), started on first use.
import { startSandbox } from './sandbox.mjs';

export function sandboxPool(log) {
  const running = new Map();
  return {
    /** A sandbox of `users` seeded users; `lane` > 0 gives another one of the same size, for a run alongside. */
    get(users, lane = 0) {
      const key = `${users}#${lane}`;
      if (!running.has(key)) {
        log(`starting a sandbox of ${users} users${lane > 0 ? ` (lane ${lane})` : ''}…`);
        running.set(key, startSandbox({ users }));
      }
      return running.get(key);
    },
    async stopAll() {
      for (const started of running.values()) await started.then((sandbox) => sandbox.stop(), () => undefined);
      running.clear();
    },
  };
}
