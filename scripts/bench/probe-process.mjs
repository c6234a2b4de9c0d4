// A probe: a long-lived child process (through tsx, so it can load the TypeScript core) that the parent asks to
// measure, round after round, over IPC. Its own timings exclude its start, so loading tsx costs nothing measured.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { root } from './paths.mjs';

export function startProbe(name, env = process.env) {
  const child = fork(join(root, 'scripts', 'bench', 'probes', name), [], { cwd: root, env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const waiting = new Map();
  let nextId = 1;
  const failAll = (error) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  child.on('message', ({ id, result, error }) => {
    const call = waiting.get(id);
    waiting.delete(id);
    if (error) call?.reject(new Error(`${name}: ${error}`));
    else call?.resolve(result);
  });
  child.on('exit', (code, signal) => failAll(new Error(`${name} ended (exit ${code ?? signal}).`)));
  child.on('error', failAll);
  return {
    /** Sends `{ command, ...input }`; resolves with the probe's answer. */
    ask(command, input = {}) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, command, ...input });
      });
    },
    stop() {
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}

/** The probe's side: answers each `{ id, command }` with what `handlers[command]` returns. */
export function serveProbe(handlers) {
  process.on('message', async ({ id, command, ...input }) => {
    try {
      process.send({ id, result: await handlers[command](input) });
    } catch (error) {
      process.send({ id, error: error?.stack ?? String(error) });
    }
  });
}
