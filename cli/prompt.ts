import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

/** Asks on the terminal without echoing what is typed (for the secret key). */
export function promptHidden(question: string): Promise<string> {
  process.stderr.write(question);
  let muted = true;
  const sink = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output: sink, terminal: true });
  return new Promise((resolve) => {
    rl.question('', (answer) => {
      muted = false;
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}
