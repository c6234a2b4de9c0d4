import { parseSandboxArgs, USAGE, UsageError } from './cli-options';
import { startSandbox } from './server';

/** `npm run sandbox`: start the sandbox, print how to reach it, log each request, stop on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let options;
  try {
    options = parseSandboxArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`sandbox: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  }
  if (options === 'help') {
    console.log(USAGE);
    return;
  }

  let sandbox;
  try {
    sandbox = await startSandbox(options);
  } catch (error) {
    const inUse = (error as { code?: string }).code === 'EADDRINUSE';
    const reason = inUse
      ? `port ${options.port} is already in use. Stop the other server, or pick another port with --port (0 = any free port).`
      : (error as Error).message;
    console.error(`sandbox: could not start: ${reason}`);
    process.exit(1);
  }
  // Sandbox-only, publicly documented credentials: printing them is the point.
  console.log(`URL: ${sandbox.url}`);
  console.log(`API key: ${sandbox.credentials.apiKey}`);
  console.log(`Secret key: ${sandbox.credentials.apiSecret}`);
  console.log(`Application name: ${sandbox.credentials.applicationName}`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`Stopping the sandbox (${signal}).`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`sandbox: error while stopping: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
