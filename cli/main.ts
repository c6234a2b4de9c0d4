import { runCli } from './run-cli';

// The entry of the built CLI (dist/cli/main.js, started by bin/privacy-desk.js).

// A batch run listens for Ctrl-C while it runs (cancel: the items in flight finish);
// once its listener is removed, Ctrl-C ends the process as usual.
const onInterrupt = (listener: () => void) => {
  process.on('SIGINT', listener);
  return () => {
    process.off('SIGINT', listener);
  };
};

// A reader that stops early (`privacy-desk batch list | head -3`) closes the pipe: the rest of the
// output is not wanted, so the process ends quietly (exit 0) instead of dying on an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
// A closed stderr leaves nowhere to say anything: the command goes on with stdout.
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

// Set the code instead of exiting at once, so piped stdout is flushed completely.
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, onInterrupt });
