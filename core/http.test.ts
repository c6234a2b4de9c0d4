import { describe, expect, it } from 'vitest';
import { classifyTransportError, sendRequest, statusError, type HttpDeps } from './http';

const deps = (fetch: HttpDeps['fetch'], timeoutMs = 1000): HttpDeps => ({ fetch, timeoutMs, now: Date.now, secrets: () => [] });
const request = { method: 'GET' as const, url: 'https://service.example/api/v1/users', purpose: 'listing users' };
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
    expect((refused as Error).message).toMatch(/^Could not reach service\.example: .*Check the address and your connection\.$/);
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
    await expect(sendRequest(deps(slowBody, 50), { ...request, irreversible: true, purpose: 'deleting user “a”' })).rejects.toThrow(/UNKNOWN/);
  });

  it('returns any HTTP answer with its request id', async () => {
    const response = await sendRequest(deps(async () => new Response('{"a":1}', { status: 418, headers: { 'x-request-id': 'abc' } })), request);
    expect(response).toMatchObject({ status: 418, text: '{"a":1}', requestId: 'abc', host: 'service.example' });
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
