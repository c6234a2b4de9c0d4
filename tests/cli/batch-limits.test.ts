import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../cli/run-cli';
import { startCliFixture, type CliFixture } from './cli-harness';
import { batchEnv, runBatchCli, sandboxUids, uidFile } from './batch-harness';

/** A proxy in front of the sandbox that answers a DELETE of `uid` with 429 and this Retry-After; everything else passes. */
async function rateLimitingProxy(target: string, uid: string, retryAfter: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((incoming, outgoing) => {
    if (incoming.method === 'DELETE' && incoming.url?.endsWith(`/users/${encodeURIComponent(uid)}`)) {
      incoming.resume();
      outgoing.writeHead(429, { 'content-type': 'text/plain', 'retry-after': retryAfter }).end('Retry later\n');
      return;
    }
    const upstream = request(new URL(incoming.url ?? '/', target), { method: incoming.method, headers: incoming.headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The CLI in-process against `baseUrl` (not the fixture's sandbox address). */
async function cliAt(f: CliFixture, baseUrl: string, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli([...args, '--base-url', baseUrl, '--app', f.sandbox.credentials.applicationName], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: batchEnv(f),
  });
  return { code, stdout, stderr };
}

describe('privacy-desk batch: limits a run keeps', () => {
  let f: CliFixture;
  let uids: string[];
  beforeAll(async () => {
    f = await startCliFixture(12);
    uids = (await sandboxUids(f)).slice(0, 4);
  });
  afterAll(() => f.close());

  it('a 429 asking to wait 10 years stops the run at once, resumable, and says until when', async () => {
    const proxy = await rateLimitingProxy(f.sandbox.url, uids[1]!, String(10 * 365 * 86_400));
    try {
      const { code, stderr } = await cliAt(f, proxy.url, ['batch', 'delete', uidFile(uids), '--concurrency', '1', '--yes', 'DELETE 4']);
      expect(code).toBe(1);
      expect(stderr).toMatch(/RATE_LIMITED: Batch job \S+ stopped: the service answered 429 \(too many requests\) and asked to wait 3,650 days, until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d, longer than a batch waits \(10 minutes\)\./);
      expect(stderr).toContain('After that time, resume the job');
      expect(stderr).toMatch(/3 items not finished: run privacy-desk batch resume \S+ .*to finish them/);
    } finally {
      await proxy.close();
    }
  }, 30_000);

  it('ends each user’s sessions first by default, as the console and single acts do; --no-logout-first skips it', async () => {
    const all = await sandboxUids(f);
    const [first, second, third] = all.slice(-3) as [string, string, string];
    const help = await runBatchCli(f, ['batch', 'delete', '--help']);
    expect(help.stdout).toContain('--no-logout-first');
    const dry = await runBatchCli(f, ['batch', 'delete', uidFile([first]), '--dry-run']);
    expect(dry.stdout).toMatch(/sessions: +each user’s sessions are ended first/);

    const logoutsBefore = f.sandbox.stats().logoutRequests;
    expect((await runBatchCli(f, ['batch', 'delete', uidFile([first, second]), '--yes', 'DELETE 2'])).code).toBe(0);
    expect(f.sandbox.stats().logoutRequests - logoutsBefore).toBe(2);
    expect(f.auditLines().filter((entry) => entry.action === 'logout' && entry.outcome === 'attempted').map((entry) => entry.uid)).toEqual(expect.arrayContaining([first, second]));

    const without = await runBatchCli(f, ['batch', 'delete', uidFile([third]), '--no-logout-first', '--yes', 'DELETE 1']);
    expect(without.code).toBe(0);
    expect(without.stdout).toMatch(/sessions: +NOT ended first \(--no-logout-first/);
    expect(f.sandbox.stats().logoutRequests - logoutsBefore).toBe(2);
  });

  it('--retry-for sets how long an item is tried (in minutes); a value it cannot use is refused before anything is sent', async () => {
    const help = await runBatchCli(f, ['batch', 'delete', '--help']);
    expect(help.stdout).toMatch(/--retry-for <minutes>[\s\S]*before it is failed \(default 10\)/);
    // Every command that runs a job takes it.
    for (const command of ['resume', 'retry']) expect((await runBatchCli(f, ['batch', command, '--help'])).stdout).toContain('--retry-for <minutes>');
    const requestsBefore = f.sandbox.stats().apiRequests;
    for (const [value, words] of [['0', 'must be between 1 and 1440 (got 0)'], ['ten', 'must be a whole number (got "ten")'], ['1441', 'must be between 1 and 1440 (got 1441)']] as const) {
      const refused = await runBatchCli(f, ['batch', 'delete', uidFile(uids.slice(0, 1)), '--retry-for', value, '--yes', 'DELETE 1']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`--retry-for ${words}`);
    }
    expect(f.sandbox.stats().apiRequests).toBe(requestsBefore);
  });

  it('a dry run, or a run that was not confirmed, leaves no draft in the data folder', async () => {
    const drafts = join(f.dataDir, 'batches', 'drafts');
    const left = () => (existsSync(drafts) ? readdirSync(drafts) : []);
    const list = uidFile(uids.slice(0, 2));
    const dry = await runBatchCli(f, ['batch', 'delete', list, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(left()).toEqual([]);
    const unconfirmed = await runBatchCli(f, ['batch', 'delete', list, '--yes', 'DELETE 3']);
    expect(unconfirmed.code).toBe(2);
    expect(left()).toEqual([]);
  });
});
