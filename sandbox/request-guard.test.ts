import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { sandboxRequestRefusal } from './request-guard';

/** A raw request, so Host, Origin and Sec-Fetch-Site can be whatever a browser or an attacker sends. */
function send(sandbox: RunningSandbox, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(sandbox.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { connection: 'close', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandbox refuses what a web page could send it', () => {
  let sandbox: RunningSandbox;
  let port: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 5 });
    port = new URL(sandbox.url).port;
  });
  afterAll(() => sandbox.close());

  const stats = async (): Promise<unknown> => (await fetch(`${sandbox.url}/sandbox/stats`)).json();

  it('POST /sandbox/reset with a foreign Host (DNS rebinding) or a foreign Origin is 403 and resets nothing', async () => {
    await fetch(`${sandbox.url}/sandbox/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uid: 'kept-user' }) });
    const attacks: Array<Record<string, string>> = [
      { host: `evil.example:${port}` },
      { host: `evil.localhost:${port}` },
      { host: `127.0.0.1:${port}`, origin: 'https://evil.example' },
      { host: `127.0.0.1:${port}`, origin: 'null' },
      { host: `127.0.0.1:${port}`, origin: 'http://localhost:1' },
      { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' },
      { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attacks) {
      const answer = await send(sandbox, 'POST', '/sandbox/reset', headers);
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: expect.stringMatching(/^Refused/) });
    }
    expect((await fetch(`${sandbox.url}/sandbox/users/kept-user`)).status).toBe(200);
  });

  it('the service routes refuse a foreign Host or a cross-site page too, before counting or faulting anything', async () => {
    const before = await stats();
    expect((await send(sandbox, 'GET', '/api/v1/users', { host: `rebound.example:${port}` })).status).toBe(403);
    expect((await send(sandbox, 'POST', '/oauth/token', { host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(sandbox, 'POST', '/auth/logout/x', { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await stats()).toEqual(before);
  });

  it('the core, the CLI and the tests pass: no Origin, Host by any loopback name, or the sandbox’s own origin', async () => {
    expect((await fetch(`${sandbox.url}/sandbox/users/kept-user`)).status).toBe(200);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await send(sandbox, 'GET', '/sandbox/faults', { host })).status, host).toBe(200);
    }
    expect((await send(sandbox, 'GET', '/sandbox/faults', { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    // Unauthenticated, so 401: the guard let it through to the service's own answer.
    expect((await send(sandbox, 'GET', '/api/v1/users', { host: `127.0.0.1:${port}`, origin: 'null', 'sec-fetch-site': 'none' })).status).toBe(401);
    expect((await send(sandbox, 'POST', '/sandbox/reset', { host: `127.0.0.1:${port}` })).status).toBe(200);
  });
});

describe('sandboxRequestRefusal', () => {
  const base = { path: '/sandbox/reset', origin: undefined, fetchSite: undefined, localAddress: '127.0.0.1' };
  it('accepts [::1], a proxy’s loopback port and the address the connection came in on; refuses other names', () => {
    expect(sandboxRequestRefusal({ ...base, host: '[::1]:4010', localAddress: '::1' })).toBeNull();
    expect(sandboxRequestRefusal({ ...base, host: '192.168.1.5:4010', localAddress: '::ffff:192.168.1.5' })).toBeNull();
    expect(sandboxRequestRefusal({ ...base, host: '127.0.0.1:4011' })).toBeNull();
    expect(sandboxRequestRefusal({ ...base, host: 'localhost' })).toBeNull();
    for (const host of [undefined, '', 'evil.example:4010', 'localhost.evil.example', '127.0.0.1.nip.io:4010', 'localhost:4010@evil', '[::2]:4010', '192.168.1.5:4010']) {
      expect(sandboxRequestRefusal({ ...base, host }), String(host)).toMatch(/^Refused/);
    }
  });
});
