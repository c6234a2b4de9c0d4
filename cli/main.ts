import { runCli } from './run-cli';

// The entry of the built CLI (dist/cli/main.js, started by bin/privacy-desk.js).
// Set the code instead of exiting at once, so piped stdout is flushed completely.
process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
