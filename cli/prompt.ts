import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { CliIo } from './io';

/** Asks on the terminal without echoing what is typed (for the secret key). */
export function promptHidden(question: string, io: Pick<CliIo, 'stdin' | 'stderr'>): Promise<string> {
  io.stderr.write(question);
  let muted = true;
  const sink = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      if (!muted) io.stderr.write(String(chunk));
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output: sink, terminal: true });
  return new Promise((resolve) => {
    rl.question('', (answer) => {
      muted = false;
      rl.close();
      io.stderr.write('\n');
      resolve(answer);
    });
  });
}
