import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { CliIo } from './io';

/**
 * Asks one question on the terminal, the answer echoed (a typed confirmation is no secret).
 * Ctrl-C or Ctrl-D answers "" (nothing confirmed) instead of leaving the prompt hanging.
 */
export function promptLine(question: string, io: Pick<CliIo, 'stdin' | 'stderr'>): Promise<string> {
  // readline wants a real Writable (it listens for 'resize'); this one forwards to the injected stderr.
  const echo = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      io.stderr.write(String(chunk));
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output: echo, terminal: true });
  return new Promise((resolve) => {
    let answered = false;
    const finish = (answer: string) => {
      if (answered) return;
      answered = true;
      rl.close();
      resolve(answer);
    };
    rl.on('SIGINT', () => {
      io.stderr.write('\n');
      finish('');
    });
    rl.on('close', () => finish(''));
    rl.question(question, finish);
  });
}
