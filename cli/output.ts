import type { CliIo } from './io';
import { visibleJson, visibleLines } from './visible-text';

/**
 * Results go to stdout (so --json can be piped); messages, warnings and errors to stderr.
 * Whatever is printed may quote the service, so no control character reaches the terminal as such (cli/visible-text.ts).
 */
export interface CliOutput {
  json(value: unknown): void;
  line(text?: string): void;
  note(text: string): void;
  /** Whether a result already went to stdout, so a failure never adds a second JSON document. */
  readonly wroteResult: boolean;
}

export function createOutput(io: Pick<CliIo, 'stdout' | 'stderr'>): CliOutput {
  let wroteResult = false;
  const result = (text: string) => {
    wroteResult = true;
    io.stdout.write(text);
  };
  return {
    json: (value) => result(`${visibleJson(JSON.stringify(value, null, 2))}\n`),
    line: (text = '') => result(`${visibleLines(text)}\n`),
    note: (text) => {
      io.stderr.write(`${visibleLines(text)}\n`);
    },
    get wroteResult() {
      return wroteResult;
    },
  };
}
