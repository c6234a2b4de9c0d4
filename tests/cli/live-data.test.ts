import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCliFixture, type CliFixture } from './cli-harness';

/** A port on this computer that nothing listens on: a request to it is refused without leaving the machine. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('privacy-desk says LIVE DATA before an irreversible act on a service off this computer', () => {
  let f: CliFixture;
  // An IPv4-mapped loopback address is not one of the loopback names: the CLI treats it as live, yet nothing leaves the machine.
  let liveArgs: string[] = [];
  let liveHost = '';
  beforeAll(async () => {
    f = await startCliFixture(12);
    const port = await closedPort();
    liveHost = `[::ffff:7f00:1]:${port}`;
    liveArgs = ['--base-url', `https://[::ffff:127.0.0.1]:${port}`, '--app', 'demo'];
  });
  afterAll(() => f.close());

  it.each([
    ['users', 'delete'],
    ['users', 'anonymize'],
  ])('%s %s: "LIVE DATA: <host>" is the first line on stderr', async (group, action) => {
    const { stderr, stdout } = await f.cli([group!, action!, 'jean dupont', '--confirm', 'jean dupont', ...liveArgs], { connection: false });
    expect(stderr.split('\n')[0]).toBe(`LIVE DATA: ${liveHost}`);
    expect(stdout).not.toContain('LIVE DATA');
  });

  it('logout: "LIVE DATA: <host>" first on stderr', async () => {
    const { stderr } = await f.cli(['logout', 'jean dupont', ...liveArgs], { connection: false });
    expect(stderr.split('\n')[0]).toBe(`LIVE DATA: ${liveHost}`);
  });

  it('says nothing of the kind against the sandbox on loopback', async () => {
    const erase = await f.cli(['users', 'anonymize', 'jean dupont', '--confirm', 'jean dupont']);
    expect(erase.code).toBe(0);
    expect(erase.stderr).not.toContain('LIVE DATA');
    const logout = await f.cli(['logout', 'alice@example.org']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).not.toContain('LIVE DATA');
  });
});
