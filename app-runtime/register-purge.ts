import type { Desk } from '../core/desk';

/** Once a day: a closed request's purge day is a date, so checking daily is as precise as it needs to be. */
export const PURGE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Purges the requesters of closed requests whose purge day has come (desk.requests.purgeDue) when the app starts and
 * then daily, so an app left open for weeks keeps the promise too. Start-up does not wait for it; a failure is said
 * on stderr and tried again at the next round. Returns the stop for close(): no new round, and the one under way
 * finished (it writes in the data folder, which may go once the app has closed).
 */
export function scheduleRegisterPurge(desk: Pick<Desk, 'requests'>, log: (line: string) => void = (line) => console.error(line)): () => Promise<void> {
  let underWay: Promise<void> = Promise.resolve();
  const purge = () => {
    underWay = desk.requests.purgeDue().then(
      () => undefined,
      (error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        log(`Privacy Desk: the requesters due for purging could not be purged (${why}). They are tried again in a day and each time the app starts.`);
      },
    );
  };
  purge();
  const timer = setInterval(purge, PURGE_EVERY_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    return underWay;
  };
}
