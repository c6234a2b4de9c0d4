import { request as httpRequest } from 'node:http';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSessionCredentialStore } from '../core/credential-store';
import { CONTENT_SECURITY_POLICY } from '../shared/security-headers';
import { BATCH_PREVIEW_BODY_LIMIT } from './bridge-routes';
import { startWebHost, type RunningWebHost } from './web-host';

let host: RunningWebHost;
let dataDir: string;
let staticDir: string;
let port: number;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** node:http rather than fetch: fetch will not let a test forge Host or Sec-Fetch-Site. */
/** keepOpen: send the body without ending the request (a declared Content-Length the test never fills). */
function raw(options: { method?: string; path: string; headers?: Record<string, string>; body?: string; hostname?: string; keepOpen?: boolean }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: options.hostname ?? '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
          if (options.keepOpen) req.destroy();
        });
      },
    );
    req.on('error', reject);
    if (options.keepOpen) req.write(options.body ?? '');
    else req.end(options.body);
  });
}

function bridge(method: string, input: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return raw({
    method: 'POST',
    path: `/bridge/${method}`,
    headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin', ...headers },
    body: JSON.stringify(input),
  });
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-data-'));
  staticDir = await mkdtemp(join(tmpdir(), 'privacy-desk-web-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Privacy Desk</title><div id="root"></div>');
  await writeFile(join(staticDir, '.hidden'), 'not for the browser');
  host = await startWebHost({ port: 0, dataDir, staticDir, sandboxPort: 0, openCredentials: async () => ({ store: createSessionCredentialStore(), problem: 'test' }) });
  port = Number(new URL(host.origin).port);
});

afterAll(async () => {
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(staticDir, { recursive: true, force: true });
});

describe('loopback web host', () => {
  it('prints an address on 127.0.0.1 with a long random token in the fragment', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/#token=${host.token}`);
    expect(Buffer.from(host.token, 'base64url')).toHaveLength(32);
  });

  it('serves the page with the CSP and the other security headers', async () => {
    const page = await raw({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves nothing outside the built window', async () => {
    expect((await raw({ path: '/.hidden' })).status).toBe(404);
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json']) {
      const answer = await raw({ path });
      expect([403, 404]).toContain(answer.status); // the static server refuses traversal outright
      expect(answer.body).not.toContain('privacy-desk');
    }
    // GET is not a bridge call: refused by the bridge's own checks (no token here), in its own shape.
    const get = await raw({ path: '/bridge/app.info' });
    expect(get.status).toBe(401);
    expect(JSON.parse(get.body)).toMatchObject({ ok: false, error: { code: 'UNAUTHORIZED', outcome: 'not-sent' } });
  });

  it('accepts a good call with the token (200)', async () => {
    const answer = await bridge('app.info', {});
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ ok: true, value: { keychain: { available: false, problem: 'test' }, sandboxUrl: host.sandboxUrl } });
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('accepts localhost:PORT as Host with the matching Origin', async () => {
    const answer = await bridge('app.info', {}, { Host: `localhost:${port}`, Origin: `http://localhost:${port}` });
    expect(answer.status).toBe(200);
  });

  it('accepts a call without Origin or Sec-Fetch-Site headers (older browsers, same origin)', async () => {
    const answer = await raw({ method: 'POST', path: '/bridge/app.info', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token }, body: '{}' });
    expect(answer.status).toBe(200);
  });

  it('refuses a missing or wrong token with 401', async () => {
    const missing = await raw({ method: 'POST', path: '/bridge/profiles.list', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body).error.message).toContain('npm run web');
    const wrong = host.token.slice(0, -1) + (host.token.endsWith('A') ? 'B' : 'A'); // one character off, never equal
    expect((await bridge('profiles.list', {}, { 'X-Privacy-Desk-Token': wrong })).status).toBe(401);
    expect((await bridge('profiles.list', {}, { 'X-Privacy-Desk-Token': '' })).status).toBe(401);
  });

  it('refuses a foreign Host with 403 (DNS rebinding), even for the page', async () => {
    expect((await raw({ path: '/', headers: { Host: `evil.example:${port}` } })).status).toBe(403);
    expect((await bridge('profiles.list', {}, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await bridge('profiles.list', {}, { Host: `127.0.0.1:${port + 1}` })).status).toBe(403);
  });

  it('refuses a foreign Origin or a cross-site request with 403, even with the token', async () => {
    expect((await bridge('profiles.list', {}, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await bridge('profiles.list', {}, { Origin: 'null' })).status).toBe(403);
    expect((await bridge('profiles.list', {}, { Origin: `http://localhost:${port}` })).status).toBe(403); // not where this page came from
    expect((await bridge('profiles.list', {}, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
  });

  it('refuses a non-JSON body (415) and answers malformed JSON with INVALID_INPUT', async () => {
    expect((await bridge('profiles.list', {}, { 'Content-Type': 'text/plain' })).status).toBe(415);
    const malformed = await raw({ method: 'POST', path: '/bridge/profiles.list', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token }, body: '{oops' });
    expect(malformed.status).toBe(200);
    expect(JSON.parse(malformed.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('answers an unknown method with INVALID_INPUT naming it (the dispatcher checks the name, once)', async () => {
    const answer = await bridge('users.dropAll', {});
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent', message: expect.stringContaining('“users.dropAll”') } });
  });

  it('takes a batch.preview body far over 1 MB (a pasted list or a file), checked like any call', async () => {
    const uids = Array.from({ length: 150_000 }, (_, i) => `user-${String(i).padStart(7, '0')}@example.org`);
    const input = { text: uids.join('\n'), sourceName: 'big.txt' };
    expect(JSON.stringify(input).length).toBeGreaterThan(3 * 1_048_576);

    const answer = await bridge('batch.preview', input);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: true, value: { items: uids.length, invalidCount: 0, duplicates: 0, firstUids: uids.slice(0, 3), sourceName: 'big.txt' } });
    // The same checks as every call: refused before its body is read.
    expect((await bridge('batch.preview', input, { 'X-Privacy-Desk-Token': 'wrong' })).status).toBe(401);
    expect((await bridge('batch.preview', input, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await bridge('batch.preview', input, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await bridge('batch.preview', input, { Host: `evil.example:${port}` })).status).toBe(403);
    expect((await bridge('batch.preview', input, { 'Content-Type': 'text/plain' })).status).toBe(415);
  });

  it('refuses a body over the limit with a clear bridge answer (413): 1 MB for every other method', async () => {
    const answer = await bridge('profiles.save', { name: 'x'.repeat(1_100_000) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent', message: expect.stringContaining('“profiles.save” is larger than 1 MB') } });
    expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses a batch.preview body over its own limit (413), saying how to send a list that large', async () => {
    // Declared, not sent: the host refuses on Content-Length before reading the body.
    const answer = await raw({
      method: 'POST',
      path: '/bridge/batch.preview',
      headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': host.token, 'Content-Length': String(BATCH_PREVIEW_BODY_LIMIT + 1) },
      body: '{}',
      keepOpen: true,
    });
    expect(answer.status).toBe(413);
    const { error } = JSON.parse(answer.body);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', outcome: 'not-sent' });
    expect(error.message).toContain(`“batch.preview” is larger than ${Math.round(BATCH_PREVIEW_BODY_LIMIT / 1_048_576)} MB`);
    expect(error.message).toContain('privacy-desk batch');
  });

  it('answers no CORS preflight', async () => {
    const preflight = await raw({ method: 'OPTIONS', path: '/bridge/profiles.list', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('answers odd bridge paths and methods the bridge’s way (a typed error with a stable code and words), after the same checks', async () => {
    const ours = { 'X-Privacy-Desk-Token': host.token, Origin: host.origin, 'Sec-Fetch-Site': 'same-origin' };
    const odd = [
      { method: 'POST', path: '/bridge/app.info/', status: 404, words: 'no operation called “app.info/”' },
      // Up to 100 characters the name reaches the dispatcher (which answers an unknown name with 200 and ok: false); longer, the host answers.
      { method: 'POST', path: `/bridge/${'m'.repeat(100)}`, status: 200, words: 'no operation called' },
      { method: 'POST', path: `/bridge/${'m'.repeat(101)}`, status: 404, words: `no operation called “${'m'.repeat(80)}…”` },
      { method: 'POST', path: `/bridge/${'m'.repeat(5000)}`, status: 404, words: 'no operation called' },
      { method: 'POST', path: '/bridge/', status: 200, words: 'no operation called “”' },
      { method: 'POST', path: '/bridge', status: 404, words: 'no operation called “”' },
      { method: 'POST', path: '/bridge/a/b?x=1', status: 404, words: 'no operation called “a/b”' },
      { method: 'DELETE', path: '/bridge/profiles.list', status: 405, words: 'POST requests' },
      { method: 'GET', path: '/bridge/app.info', status: 405, words: 'POST requests' },
      { method: 'PUT', path: '/bridge/users.erase', status: 405, words: 'POST requests' },
      { method: 'GET', path: '/bridge/nothing-here', status: 404, words: 'no operation called “nothing-here”' },
    ];
    for (const { method, path, status, words } of odd) {
      const withBody: Record<string, string> = method === 'GET' ? {} : { 'Content-Length': '2' };
      const answer = await raw({ method, path, headers: { ...ours, 'Content-Type': 'application/json', ...withBody }, body: method === 'GET' ? undefined : '{}' });
      expect(answer.status, `${method} ${path}`).toBe(status);
      const body = JSON.parse(answer.body);
      expect(body, `${method} ${path}`).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', outcome: 'not-sent', message: expect.stringContaining(words) } });
      expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      if (status === 405) expect(answer.headers.allow).toBe('POST');
      // Nothing weaker than a real call: without the token, from another origin or another Host, the same refusals come first.
      expect((await raw({ method, path, headers: { 'Content-Type': 'application/json' } })).status, `${method} ${path}`).toBe(401);
      expect((await raw({ method, path, headers: { ...ours, Origin: 'https://evil.example' } })).status).toBe(403);
      expect((await raw({ method, path, headers: { ...ours, Host: `evil.example:${port}` } })).status).toBe(403);
    }
    // A body of the wrong type on an odd path is the same typed answer, never Fastify's.
    const plain = await raw({ method: 'POST', path: '/bridge/app.info/', headers: { ...ours, 'Content-Type': 'text/plain', 'Content-Length': '1' }, body: 'x' });
    expect(JSON.parse(plain.body)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    // The real routes still work.
    expect((await bridge('app.info', {})).status).toBe(200);
  });

  it('is not reachable from the network, only from loopback', async (context) => {
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (!external) {
      console.warn('Skipped: this machine has no non-loopback IPv4 address to try the host from.');
      context.skip();
      return;
    }
    await expect(raw({ path: '/', hostname: external.address })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('starts the bundled sandbox and points the Sandbox profile at it', async () => {
    expect(host.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const listed = JSON.parse((await bridge('profiles.list', {})).body);
    expect(listed.value).toMatchObject({ activeId: 'sandbox', profiles: [{ id: 'sandbox', name: 'Sandbox', baseUrl: host.sandboxUrl, isLocal: true }] });
    const page = JSON.parse((await bridge('users.list', { profileId: 'sandbox', perPage: 3 })).body);
    expect(page).toMatchObject({ ok: true, value: { perPage: 3 } });
    expect(page.value.users).toHaveLength(3);
  });
});

describe('web host start-up and shut-down', () => {
  it('refuses to start without a built window, saying what to run', async () => {
    await expect(startWebHost({ port: 0, dataDir, staticDir: join(staticDir, 'missing'), bundledSandbox: false })).rejects.toThrow(/npm run web/);
  });

  it('stops the bundled sandbox when it closes', async () => {
    const ownData = await mkdtemp(join(tmpdir(), 'privacy-desk-web-close-'));
    const second = await startWebHost({ port: 0, dataDir: ownData, staticDir, sandboxPort: 0, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
    const sandboxUrl = second.sandboxUrl!;
    expect((await fetch(`${sandboxUrl}/sandbox/`)).status).toBe(200);
    await second.close();
    await expect(fetch(`${sandboxUrl}/sandbox/`)).rejects.toThrow();
    await expect(fetch(`${second.origin}/`)).rejects.toThrow();
    await rm(ownData, { recursive: true, force: true });
  });
});

describe('web host: batch previews at once', () => {
  let limited: RunningWebHost;
  let limitedData: string;
  beforeAll(async () => {
    limitedData = await mkdtemp(join(tmpdir(), 'privacy-desk-web-previews-'));
    // Small limits prove the rule quickly: two previews at once, 300 kB of their bodies together.
    limited = await startWebHost({ port: 0, dataDir: limitedData, staticDir, bundledSandbox: false, previewLimits: { concurrent: 2, bytes: 300_000 }, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
  });
  afterAll(async () => {
    await limited?.close();
    await rm(limitedData, { recursive: true, force: true });
  });

  /**
   * A preview whose body is declared but only started: it holds its room until `end` (its body sent) or `abort`.
   * It asks for 100-continue, which the host sends as it takes the request: once it has come, the room is held.
   */
  async function openPreview(declared: number) {
    const text = 'x'.repeat(declared - '{"text":"","sourceName":"slow.txt"}'.length);
    const body = `{"text":"${text}","sourceName":"slow.txt"}`;
    let settle: (answer: { status: number; body: string }) => void = () => {};
    const answer = new Promise<{ status: number; body: string }>((resolve) => (settle = resolve));
    const req = httpRequest(
      { hostname: '127.0.0.1', port: Number(new URL(limited.origin).port), method: 'POST', path: '/bridge/batch.preview', headers: { 'Content-Type': 'application/json', 'Content-Length': String(body.length), 'X-Privacy-Desk-Token': limited.token, Expect: '100-continue' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => settle({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', () => settle({ status: 0, body: '' }));
    await new Promise<void>((resolve) => {
      req.once('continue', resolve);
      req.flushHeaders();
    });
    req.write(body.slice(0, 10));
    return { answer, end: () => req.end(body.slice(10)), abort: () => req.destroy() };
  }

  async function preview(text: string) {
    const response = await fetch(`${limited.origin}/bridge/batch.preview`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': limited.token }, body: JSON.stringify({ text, sourceName: 'list.txt' }) });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { ok: boolean; error?: { code: string; outcome: string; message: string } } };
  }

  const bigPreview = () => preview('y'.repeat(200_000));

  it('refuses a preview, typed and worded, while others hold the room; a finished or abandoned one gives it back', async () => {
    const big = await openPreview(200_000);
    // Over the bytes: 200 kB held, 200 kB more asked.
    const busy = await bigPreview();
    expect(busy).toMatchObject({ status: 503, retryAfter: '5', body: { ok: false, error: { code: 'BUSY', outcome: 'not-sent', retryAfterSeconds: 5, message: expect.stringContaining('try again when the other previews finish') } } });
    // A small one still fits beside it.
    expect(await preview('alice\nbob')).toMatchObject({ status: 200, body: { ok: true } });

    // Over the count: two at once, a third is refused whatever its size.
    const second = await openPreview(1_000);
    expect(await preview('carol')).toMatchObject({ status: 503, body: { ok: false, error: { code: 'BUSY' } } });

    // One finishes (its body arrives), the other is abandoned mid-body: both give their room back.
    second.end();
    expect((await second.answer).status).toBe(200);
    big.abort();
    await vi.waitFor(async () => expect((await bigPreview()).status).toBe(200), { timeout: 10_000, interval: 5 });
  });

  it('a preview the window discards, and every preview left when the host closes, leaves no draft', async () => {
    const ownData = await mkdtemp(join(tmpdir(), 'privacy-desk-web-drafts-'));
    const own = await startWebHost({ port: 0, dataDir: ownData, staticDir, bundledSandbox: false, openCredentials: async () => ({ store: createSessionCredentialStore() }) });
    const call = async (method: string, input: unknown) => (await fetch(`${own.origin}/bridge/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Privacy-Desk-Token': own.token }, body: JSON.stringify(input) })).json() as Promise<{ ok: boolean; value: { draftId: string; discarded: boolean } }>;
    const drafts = join(ownData, 'batches', 'drafts');
    const first = (await call('batch.preview', { text: 'alice' })).value.draftId;
    await call('batch.preview', { text: 'bob' });
    expect(await call('batch.discard', { draftId: first })).toMatchObject({ ok: true, value: { discarded: true } });
    expect((await readdir(drafts)).some((name) => name.startsWith(first))).toBe(false);
    expect(await readdir(drafts)).not.toEqual([]);
    await own.close();
    expect(await readdir(drafts)).toEqual([]);
    await rm(ownData, { recursive: true, force: true });
  });

  it('checks the caller before giving a preview room: without the token it is refused as any call', async () => {
    const response = await fetch(`${limited.origin}/bridge/batch.preview`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"text":"a"}' });
    expect(response.status).toBe(401);
  });
});
