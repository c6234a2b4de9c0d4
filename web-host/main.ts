import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { toErrorInfo } from '../shared/errors';
import { DEFAULT_WEB_HOST_PORT, startWebHost } from './web-host';

/** `npm run web -- [--port N] [--no-sandbox]`: Privacy Desk in the browser, on this computer only. */

const DEFAULT_STATIC_DIR = fileURLToPath(new URL('../dist/renderer', import.meta.url));

const USAGE = `Usage: npm run web -- [--port N] [--no-sandbox]
  --port N           port on 127.0.0.1 (default ${DEFAULT_WEB_HOST_PORT}, then any free port; 0 = any free port)
  --no-sandbox       do not start the bundled sandbox
  --static-dir DIR   serve another build of the window (default dist/renderer)
  --help             show this help`;

function parseOptions(): { port: number; bundledSandbox: boolean; staticDir: string } {
  let values;
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string' }, 'no-sandbox': { type: 'boolean' }, 'static-dir': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`INVALID_INPUT: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const port = values.port === undefined ? DEFAULT_WEB_HOST_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`INVALID_INPUT: --port must be a whole number from 0 to 65535 (got "${values.port}").\n${USAGE}`);
    process.exit(2);
  }
  return { port, bundledSandbox: !values['no-sandbox'], staticDir: values['static-dir'] ?? DEFAULT_STATIC_DIR };
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

async function main(): Promise<void> {
  const { port, bundledSandbox, staticDir } = parseOptions();
  const host = await startWebHost({ port, bundledSandbox, staticDir, version: packageVersion() });
  console.log(`Privacy Desk is serving on this computer only (data folder: ${host.dataDir}).`);
  console.log(host.sandboxUrl ? `Sandbox: ${host.sandboxUrl} (bundled; it stops with this host)` : 'Sandbox: not started');
  console.log(`Open: ${host.url}`);
  console.log('Press Ctrl+C to stop.');

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(130); // a second Ctrl+C: do not wait any longer
    stopping = true;
    console.log(`\nStopping (${signal})…`);
    host.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const info = toErrorInfo(error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // Startup failures that are not ours (port refused, sandbox state unreadable) still say what happened.
  const message = info.code === 'INTERNAL' && error instanceof Error ? `${code ? `${code}: ` : ''}${error.message}` : `${info.code}: ${info.message}`;
  console.error(message);
  process.exit(1);
});
