// Pace under a rate limit: the built CLI's batch anonymisation (concurrency 16) against a sandbox that answers
// 429 beyond N requests a second (`rateLimit` fault), Retry-After in seconds or absent, and with a fixed window
// as well as the sliding one when the sandbox has that mode (`rateLimitWindow`). Figures: the items done per
// second (start-up included) as a share of N, and the share of the sandbox's answers that were 429s, counted
// from its request log.
//
// A run at 30/s takes over a minute and needs little CPU (30 requests a second, about a sixth of a core for the
// CLI and its sandbox here), so by default each 30/s run goes on its own track, and the 100/s runs one after
// another on one more track; the tracks run side by side, each on its own sandbox (--pace-serial: one track).
// A run is cut (Ctrl-C: its items in flight finish) once it has taken 2.5 times what the limit allows, and its
// rate counted from what it did by then: a pacer far below the limit costs minutes, not hours.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { runCliBatch } from '../batch-cli.mjs';
import { PACE_LIMITS, PACE_RETRY_AFTER, PACE_WINDOWS, paceKey } from '../figures.mjs';

const SIDE_BY_SIDE_BELOW = 50;
// The 30/s tracks start this much after the 100/s one: five CLIs starting at once on two cores made the first 100/s
// run's start-up (counted in its rate) twice as slow, and that run alone missed its goal round after round.
const SIDE_TRACKS_START_AFTER_MS = 5_000;

export const pacePart = {
  name: 'pace',
  async setup({ options, sandboxes, work, log }) {
    const first = await sandboxes.get(options.smallUsers);
    const { faults, variants } = await first.faults();
    const hasFixed = 'rateLimitWindow' in { ...faults, ...variants };
    const windows = Object.entries(PACE_WINDOWS).filter(([, window]) => window === 'sliding' || hasFixed);
    if (windows.length === 1) log('pace: the sandbox has no rateLimitWindow fault: fixed-window runs skipped.');
    const configs = PACE_LIMITS.flatMap((limit) => Object.entries(PACE_RETRY_AFTER).flatMap(([retryName, retryAfter]) =>
      windows.map(([windowName, window]) => ({ limit, retryAfter, window, key: (what) => paceKey(limit, retryName, windowName, what) }))));
    const tracks = options.paceSerial
      ? [configs]
      : [...configs.filter((config) => config.limit < SIDE_BY_SIDE_BELOW).map((config) => [config]), configs.filter((config) => config.limit >= SIDE_BY_SIDE_BELOW)].filter((track) => track.length > 0);
    const sandboxList = await Promise.all(tracks.map((_, lane) => sandboxes.get(options.smallUsers, lane)));
    const uids = (await first.uids()).slice(0, options.paceItems);
    // A tiny run (npm test) proves the part runs; it has no start-ups to keep apart.
    const sideTracksStartAfterMs = options.tiny ? 0 : SIDE_TRACKS_START_AFTER_MS;
    return { tracks, sandboxList, uids, sideTracksStartAfterMs, dir: mkdtempSync(join(work, 'pace-')) };
  },
  // Not warmed up: the CLI is, by the other parts' warm-up, and a warm-up of these runs would cost minutes.
  warmUp: async () => undefined,
  async measure({ tracks, sandboxList, uids, sideTracksStartAfterMs, dir }) {
    const figures = { paceRunsCut: 0 };
    const lastLane = tracks.length - 1;
    await Promise.all(tracks.map(async (track, lane) => {
      if (lane !== lastLane) await new Promise((resolve) => setTimeout(resolve, sideTracksStartAfterMs));
      for (const config of track) {
        const run = await paceRun(sandboxList[lane], config, uids, mkdtempSync(join(dir, 'run-')));
        Object.assign(figures, { [config.key('Ratio')]: run.ratio, [config.key('429Share')]: run.share429 });
        if (run.cut) figures.paceRunsCut += 1;
      }
    }));
    return figures;
  },
};

async function paceRun(sandbox, { limit, retryAfter, window }, uids, dir) {
  await sandbox.reset();
  await sandbox.setFaults({ rateLimit: limit, retryAfter, ...(window === 'fixed' ? { rateLimitWindow: 'fixed' } : {}) });
  const allowedMs = (uids.length / limit) * 1000;
  const run = await runCliBatch({ sandbox, work: dir, uids, interruptAfterMs: Math.round(2.5 * allowedMs + 10_000) });
  const answers = await sandbox.answers();
  const itemsPerSecond = run.done / (run.ms / 1000);
  return { ratio: itemsPerSecond / limit, share429: (answers.byStatus['429'] ?? 0) / Math.max(1, answers.total), cut: run.interrupted };
}
