import { describe, expect, it } from 'vitest';
import { msg } from '../../shared/messages';
import { classifyTransportError, DEFAULT_MAX_BODY_BYTES, failureInBody, isCancelledRedirect, sendRequest, statusError, type HttpDeps } from './http';

const deps = (fetch: HttpDeps['fetch'], timeoutMs = 1000): HttpDeps => ({ fetch, timeoutMs, now: Date.now, secrets: () => [] });
const request = { method: 'GET' as const, url: 'https://service.example/api/v1/users', purpose: msg('purpose.listUsers', { page: 1 }) };
const nodeError = (code: string) => Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`connect ${code}`), { code }) });

describe('classifyTransportError', () => {
  it.each(['CERT_HAS_EXPIRED', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'SELF_SIGNED_CERT_IN_CHAIN'])('%s is TLS', (code) => {
    expect(classifyTransportError(nodeError(code)).kind).toBe('tls');
  });
  it('reads Electron net:: codes from the message', () => {
    expect(classifyTransportError(new Error('net::ERR_CERT_AUTHORITY_INVALID')).kind).toBe('tls');
    expect(classifyTransportError(new Error('net::ERR_CONNECTION_REFUSED'))).toMatchObject({ kind: 'network', notSent: true });
    expect(classifyTransportError(new Error('net::ERR_CONNECTION_RESET'))).toMatchObject({ kind: 'network', notSent: false });
  });
  it('tells refused-before-sending from cut-mid-flight', () => {
    expect(classifyTransportError(nodeError('ECONNREFUSED'))).toMatchObject({ notSent: true });
    expect(classifyTransportError(nodeError('ENOTFOUND'))).toMatchObject({ notSent: true });
    expect(classifyTransportError(nodeError('ECONNRESET'))).toMatchObject({ notSent: false });
    expect(classifyTransportError(new TypeError('fetch failed'))).toMatchObject({ kind: 'network', notSent: false });
  });
});

describe('sendRequest', () => {
  it('maps a certificate failure to TLS and a refused connection to NETWORK, without the original error', async () => {
    const tls = await sendRequest(deps(async () => Promise.reject(nodeError('DEPTH_ZERO_SELF_SIGNED_CERT'))), request).catch((e: unknown) => e);
    expect(tls).toMatchObject({ code: 'TLS' });
    expect((tls as Error).message).toContain('service.example');
    expect((tls as Error).cause).toBeUndefined();
    const refused = await sendRequest(deps(async () => Promise.reject(nodeError('ECONNREFUSED'))), request).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'NETWORK' });
    expect((refused as Error).message).toMatch(/^Could not reach service\.example: .*Check the address and your connection\. \(ECONNREFUSED\)$/);
    expect(refused).toMatchObject({ text: { id: 'http.unreachable' }, quote: { from: 'system', text: 'ECONNREFUSED' } });
    expect(refused).toMatchObject({ outcome: 'not-sent' });
  });

  it('a connection cut mid-request never says "could not reach": it may have arrived', async () => {
    const cut = await sendRequest(deps(async () => Promise.reject(nodeError('ECONNRESET'))), { ...request, irreversible: true, purpose: msg('purpose.deleteUser', { uid: 'a' }) }).catch((e: unknown) => e);
    expect(cut).toMatchObject({ code: 'NETWORK', outcome: 'unknown' });
    expect((cut as Error).message).toMatch(/^The connection to service\.example failed during the request: .*UNKNOWN/);
  });

  it('times out a request that never answers, including a slow body', async () => {
    const hanging: HttpDeps['fetch'] = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    await expect(sendRequest(deps(hanging, 50), request)).rejects.toMatchObject({ code: 'TIMEOUT' });
    const slowBody: HttpDeps['fetch'] = async (_url, init) => {
      const body = new ReadableStream({
        start(controller) {
          init?.signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { status: 200 });
    };
    await expect(sendRequest(deps(slowBody, 50), { ...request, irreversible: true, purpose: msg('purpose.deleteUser', { uid: 'a' }) })).rejects.toThrow(/UNKNOWN/);
  });

  it('returns any HTTP answer with its request id', async () => {
    const response = await sendRequest(deps(async () => new Response('{"a":1}', { status: 418, headers: { 'x-request-id': 'abc' } })), request);
    expect(response).toMatchObject({ status: 418, text: '{"a":1}', requestId: 'abc', host: 'service.example' });
  });
});

describe('body size cap', () => {
  const act = { method: 'POST' as const, url: 'https://service.example/api/v1/users/a/anonymize', purpose: msg('purpose.anonymizeUser', { uid: 'a' }), irreversible: true };
  /** A body sent in 64 KB chunks with no Content-Length, counting how much of it was pulled. */
  const streamed = (totalBytes: number, status = 200) => {
    const pulled = { bytes: 0 };
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled.bytes >= totalBytes) return controller.close();
        pulled.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    return { fetch: (async () => new Response(body, { status, headers: { 'x-request-id': 'big-1' } })) as HttpDeps['fetch'], pulled };
  };

  it('refuses a 10 MB body after reading no more than the cap, as UNEXPECTED_RESPONSE', async () => {
    const big = streamed(10 * 1024 * 1024);
    const error = await sendRequest(deps(big.fetch), { ...request, maxBodyBytes: 2 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', status: 200, requestId: 'big-1' });
    expect((error as Error).message).toMatch(/larger than 2 MB/);
    expect(big.pulled.bytes).toBeLessThanOrEqual(2 * 1024 * 1024 + 2 * 64 * 1024);
  });

  it('a declared Content-Length over the cap is refused before reading', async () => {
    const fetch: HttpDeps['fetch'] = async () => new Response('x'.repeat(DEFAULT_MAX_BODY_BYTES + 1), { status: 200, headers: { 'content-length': String(DEFAULT_MAX_BODY_BYTES + 1) } });
    await expect(sendRequest(deps(fetch), request)).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
  });

  it('an act’s 2xx too big to read leaves the outcome unknown; a 4xx too big is still a refusal', async () => {
    const ok = await sendRequest(deps(streamed(1024 * 1024).fetch), act).catch((e: unknown) => e);
    expect(ok).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown' });
    expect((ok as Error).message).toMatch(/UNKNOWN/);
    expect(await sendRequest(deps(streamed(1024 * 1024, 404).fetch), act).catch((e: unknown) => e)).toMatchObject({ outcome: 'refused', status: 404 });
  });

  it('reads a body up to the cap whole, multi-byte characters across chunks included', async () => {
    const text = `{"name":"${'é'.repeat(30_000)}"}`;
    const fetch: HttpDeps['fetch'] = async () => new Response(text, { status: 200 });
    expect((await sendRequest(deps(fetch), request)).text).toBe(text);
  });
});

describe('Electron’s cancelled redirect', () => {
  // What net.fetch rejects with under redirect: 'manual' (electron/electron#43715).
  const electronFetch: HttpDeps['fetch'] = async () => Promise.reject(new Error('Redirect was cancelled'));

  it('is recognised, and nothing else is', () => {
    expect(isCancelledRedirect(new Error('Redirect was cancelled'))).toBe(true);
    expect(isCancelledRedirect(new TypeError('fetch failed', { cause: new Error('Redirect was cancelled') }))).toBe(true);
    expect(isCancelledRedirect(new Error('net::ERR_CONNECTION_RESET'))).toBe(false);
  });

  it('says redirected, nothing sent: refused like the 3xx Node returns, not a network failure with outcome unknown', async () => {
    const act = { method: 'POST' as const, url: 'https://service.example/api/v1/users/a/anonymize', purpose: msg('purpose.anonymizeUser', { uid: 'a' }), irreversible: true };
    const error = await sendRequest(deps(electronFetch), act).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'refused' });
    expect((error as Error).message).toMatch(/^The service redirected .*while anonymising user “a”\. Redirects are not followed: nothing was sent there and nothing was changed\./);
    const node = await sendRequest(deps(async () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.example/x?k=1' } })), act);
    const nodeError = statusError(node, act, [], 0);
    expect(nodeError).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'refused', status: 302 });
    expect(nodeError.message).toMatch(/^The service redirected \(302\) to https:\/\/elsewhere\.example\/x while anonymising user “a”\. Redirects are not followed: nothing was sent there and nothing was changed\./);
  });
});

describe('statusError', () => {
  const answer = (status: number, body = '', headers: Record<string, string> = {}) => ({
    status,
    headers: new Headers({ 'x-request-id': 'req-1', ...headers }),
    text: body,
    requestId: 'req-1',
    elapsedMs: 1,
    host: 'service.example',
  });
  // The client's clock, not the wall clock: a Retry-After date is read against it.
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('429 carries retryAfterSeconds from seconds or an HTTP date read on the client clock', () => {
    expect(statusError(answer(429, '', { 'retry-after': '12' }), request, [], now)).toMatchObject({ code: 'RATE_LIMITED', outcome: 'refused', status: 429, requestId: 'req-1', retryAfterSeconds: 12 });
    const limited = statusError(answer(429, '', { 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }), request, [], now);
    expect(limited.retryAfterSeconds).toBe(30);
    expect(statusError(answer(429), request, [], now).retryAfterSeconds).toBeUndefined();
  });
  it('5xx is SERVER_ERROR quoting the service without secrets', () => {
    const error = statusError(answer(500, '{"error":"db down for key sk-123456789"}'), request, ['sk-123456789'], now);
    expect(error).toMatchObject({ code: 'SERVER_ERROR', status: 500 });
    expect(error.message).toContain('db down');
    expect(error.message).not.toContain('sk-123456789');
  });
  it('a redirect names the target without its query', () => {
    const error = statusError(answer(301, '', { location: 'https://new.example/api/v1/users?api_key=k-secret' }), request, [], now);
    expect(error).toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'refused' });
    expect(error.message).toContain('https://new.example/api/v1/users');
    expect(error.message).not.toContain('k-secret');
  });
});

describe('failureInBody: which 2xx bodies say the request failed (docs/SERVICE-API.md#bodies-that-say-failure)', () => {
  it.each([
    [{ error: 'User not found', status: 404 }, 'an "error" member'],
    [{ success: false }, '"success": false'],
    [{ ok: false }, '"ok": false'],
    [{ errors: [{ detail: 'Validation failed' }] }, 'an "errors" member'],
    [{ errors: { uid: ['is locked'] } }, 'an "errors" member'],
    [{ error: { code: 'locked' } }, 'an "error" member'],
    [{ status: 404 }, '"status": 404'],
    [{ statusCode: '503' }, '"statusCode": 503'],
    [{ code: 422, message: 'nope' }, '"code": 422'],
    [{ status: 'Error' }, '"status": "error"'],
    [{ status: 'fail', data: null }, '"status": "fail"'],
  ])('%j says failure (%s)', (body, sign) => {
    expect(failureInBody(body)).toBe(sign);
  });

  it.each([[{ success: true }], [{}], [[]], ['done'], [null], [{ error: null }], [{ error: '' }], [{ error: false }], [{ errors: [] }], [{ errors: {} }], [{ status: 200 }], [{ status: 'ok' }], [{ code: 'USER_DELETED' }], [{ code: 1001 }], [{ success: 'false' }]])(
    '%j does not',
    (body) => {
      expect(failureInBody(body)).toBeUndefined();
    },
  );
});
