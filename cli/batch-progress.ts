import { SingleBar } from 'cli-progress';
import type { BatchProgress } from '../shared/batch';
import { doneCount, formatSeconds } from './batch-words';
import type { CliOutputStream } from './io';

export interface BatchProgressView {
  update(progress: BatchProgress): void;
  /** Prints a message on its own line (the bar is ended, the message written, the bar drawn again below it). */
  interject(write: () => void): void;
  /** Clears the bar's line (the summary that follows tells the counts). */
  stop(): void;
}

const MAX_BAR_WIDTH = 30;
/** Below this, the bar is left out and the words keep the room. */
const MIN_BAR_WIDTH = 10;

/** The progress in words, the bar in front when the line has room for it (`columns`: the terminal's width). */
export function progressLine(progress: BatchProgress, columns = 80): string {
  const { counts, total } = progress;
  const finished = total - counts.unfinished;
  const fraction = total === 0 ? 1 : finished / total;
  // One column is kept free: a line that fills the last column wraps on some terminals.
  const room = columns - 1;
  const words = fittedWords(progress, fraction, room);
  const barWidth = Math.min(MAX_BAR_WIDTH, room - words.length - 1);
  if (barWidth < MIN_BAR_WIDTH) return words;
  const filled = Math.round(fraction * barWidth);
  return `${'█'.repeat(filled)}${'░'.repeat(barWidth - filled)} ${words}`;
}

/**
 * The longest wording that fits `room`: the state in full, then shorter, then without the rate,
 * then without "not found" (done, failed and remaining always stay; a terminal cuts what is left).
 */
function fittedWords(progress: BatchProgress, fraction: number, room: number): string {
  const { counts } = progress;
  const wait = Math.ceil(progress.waitSeconds ?? 0);
  // A state other than running comes first, right after the percentage.
  const states: Array<string | undefined> =
    progress.state === 'waiting'
      ? [`waiting ${wait} s (the service asked to slow down)`, `waiting ${wait} s (slow down)`]
      : progress.state === 'paused'
        ? ['paused']
        : progress.state === 'stopping'
          ? [`stopping (${progress.inFlight} in flight)`]
          : [undefined];
  const rate = `${progress.ratePerSecond.toFixed(1)}/s`;
  const left = progress.state === 'running' && progress.secondsLeft !== undefined ? `${formatSeconds(progress.secondsLeft)} left` : undefined;
  const compose = (state: string | undefined, { notFound = true, speed = true } = {}) =>
    [
      `${Math.floor(fraction * 100)}%`,
      state,
      `done ${doneCount(counts)}`,
      `failed ${counts.failed}`,
      notFound ? `not found ${counts.notFound}` : undefined,
      `remaining ${counts.unfinished}`,
      speed ? rate : undefined,
      speed ? left : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(' | ');
  const shortest = states[states.length - 1];
  const candidates = [...states.map((state) => compose(state)), compose(shortest, { speed: false }), compose(shortest, { speed: false, notFound: false })];
  return candidates.find((line) => line.length <= room) ?? candidates[candidates.length - 1] ?? '';
}

/**
 * A progress bar on stderr when it is a terminal (cli-progress redraws one line); nothing when
 * piped, so a script's stderr holds only messages and the summary tells the rest.
 */
export function createBatchProgress(stderr: CliOutputStream, first: BatchProgress): BatchProgressView {
  const { total } = first;
  if (stderr.isTTY !== true) return { update: () => undefined, interject: (write) => write(), stop: () => undefined };
  let last = first;
  const value = () => total - last.counts.unfinished;
  const bar = new SingleBar({
    // cli-progress only writes to the stream (and reads isTTY and columns); readline's cursor helpers write escape codes to it.
    stream: stderr as unknown as NodeJS.WritableStream,
    format: () => progressLine(last, stderr.columns ?? 80),
    // Ctrl-C is the run's own business (cancel), never the bar's: no process handlers of its own.
    gracefulExit: false,
    hideCursor: null,
    // The bar's line is cleared when it stops: what follows (a message, the summary) starts on a clean line.
    clearOnComplete: true,
    // Cut to the terminal's width rather than wrap (a wrapped line cannot be redrawn in place).
    linewrap: true,
    fps: 5,
  });
  let active = true;
  bar.start(total, value());
  return {
    update(progress) {
      last = progress;
      if (active) bar.update(value());
    },
    interject(write) {
      // cli-progress puts the cursor back where the bar started when it stops: stop it before anything
      // else is written, and start a new one below, or the message would be drawn over.
      if (active) bar.stop();
      write();
      if (active) bar.start(total, value());
    },
    stop() {
      if (active) bar.stop();
      active = false;
    },
  };
}
