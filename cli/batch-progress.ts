import { SingleBar } from 'cli-progress';
import type { BatchProgress } from '../shared/batch';
import { doneCount, formatSeconds } from './batch-words';
import type { CliOutputStream } from './io';

export interface BatchProgressView {
  update(progress: BatchProgress): void;
  /** Leaves the last state on screen and moves to the next line. */
  stop(): void;
}

const BAR_WIDTH = 20;

/** The line under the bar: what a waiting operator wants to know, in words. */
export function progressLine(progress: BatchProgress): string {
  const { counts, total } = progress;
  const finished = total - counts.unfinished;
  const filled = total === 0 ? BAR_WIDTH : Math.round((finished / total) * BAR_WIDTH);
  const percent = total === 0 ? 100 : Math.floor((finished / total) * 100);
  const parts = [
    `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${percent}%`,
    `done ${doneCount(counts)}`,
    `failed ${counts.failed}`,
    `not found ${counts.notFound}`,
    `remaining ${counts.unfinished}`,
    `${progress.ratePerSecond.toFixed(1)}/s`,
  ];
  if (progress.state === 'waiting') parts.push(`waiting ${Math.ceil(progress.waitSeconds ?? 0)} s (the service asked to slow down)`);
  else if (progress.state === 'paused') parts.push('paused');
  else if (progress.state === 'stopping') parts.push(`stopping: ${progress.inFlight} in flight finish, nothing more is sent`);
  else if (progress.secondsLeft !== undefined) parts.push(`${formatSeconds(progress.secondsLeft)} left`);
  return parts.join(' | ');
}

/**
 * A progress bar on stderr when it is a terminal (cli-progress redraws one line); nothing when
 * piped, so a script's stderr holds only messages and the summary tells the rest.
 */
export function createBatchProgress(stderr: CliOutputStream, total: number): BatchProgressView {
  if (stderr.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  let last: BatchProgress | undefined;
  const bar = new SingleBar({
    // The stream cli-progress writes to: only write, isTTY and columns are used through readline's cursor helpers.
    stream: stderr as unknown as NodeJS.WritableStream,
    format: () => (last ? progressLine(last) : 'starting…'),
    // Ctrl-C is the run's own business (cancel), never the bar's: no process handlers of its own.
    gracefulExit: false,
    hideCursor: null,
    // Cut to the terminal's width rather than wrap (a wrapped line cannot be redrawn in place).
    linewrap: true,
    fps: 5,
  });
  bar.start(total, 0);
  return {
    update(progress) {
      last = progress;
      bar.update(total - progress.counts.unfinished);
    },
    stop() {
      bar.stop();
    },
  };
}
