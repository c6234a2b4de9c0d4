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

// Set the code instead of exiting at once, so piped stdout is flushed completely.
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, onInterrupt });
