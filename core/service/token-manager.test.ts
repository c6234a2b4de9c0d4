import { describe, expect, it } from 'vitest';
import { msg } from '../../shared/messages';
import type { HttpDeps } from './http';
import { sendAuthorized, TokenManager } from './token-manager';

const BASE = 'https://service.example';
const credentials = { apiKey: 'key-0123456789', apiSecret: 'secret-0123456789abcdef' };

/** A token endpoint stub: answers with what `answer` returns and records each form body. */
function tokenStub(answer: (form: URLSearchParams, n: number) => Response | Promise<Response>) {
  const forms: URLSearchParams[] = [];
  let clock = Date.parse('2026-11-21T12:00:00Z');
  const deps: HttpDeps = {
    timeoutMs: 1000,
    now: () => clock,
    secrets: () => [],
    fetch: async (url, init) => {
      expect(String(url)).toBe(`${BASE}/oauth/token`);
      const form = new URLSearchParams(String(init?.body));
      forms.push(form);
      return answer(form, forms.length);
    },
  };
  return { deps, forms, advance: (ms: number) => (clock += ms), nowS: () => Math.floor(clock / 1000) };
}

/** Retries as the client makes them, without waiting: the waits asked for are recorded. */
const waits: number[] = [];
const NO_WAIT = { maxRetries: 3, sleep: async (ms: number) => void waits.push(ms) };

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('TokenManager', () => {
  it('sends the client-credentials form and computes expiry from created_at + expires_in', async () => {
    const stub = tokenStub(() => json({ access_token: 'tok-1', token_type: 'Bearer', expires_in: 7200, created_at: stub.nowS() - 100, scope: 'public' }));
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    const info = await tokens.info('public');
    expect(Object.fromEntries(stub.forms[0]!)).toEqual({ grant_type: 'client_credentials', client_id: credentials.apiKey, client_secret: credentials.apiSecret, scope: 'public' });
    expect(info).toEqual({ scope: 'public', expiresAt: (stub.nowS() - 100 + 7200) * 1000 });
  });

  it('counts from local receipt time when created_at is missing or far from our clock', async () => {
    for (const createdAt of [undefined, 1000, Math.floor(Date.parse('2026-11-21T13:00:00Z') / 1000)]) {
      const stub = tokenStub(() => json({ access_token: 'tok', expires_in: 600, created_at: createdAt }));
      const info = await new TokenManager(stub.deps, credentials, BASE).info('authentication');
      expect(info.expiresAt).toBe(stub.deps.now() + 600_000);
    }
  });

  it('reuses a token until 60 s (or a tenth of its life) before expiry, then refreshes', async () => {
    const stub = tokenStub((_form, n) => json({ access_token: `tok-${n}`, expires_in: 7200, created_at: stub.nowS() }));
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    await tokens.lease('public');
    stub.advance(7200_000 - 61_000);
    expect((await tokens.lease('public')).reused).toBe(true);
    stub.advance(2000);
    expect((await tokens.lease('public')).token.value).toBe('tok-2');

    const short = tokenStub((_form, n) => json({ access_token: `s-${n}`, expires_in: 2, created_at: short.nowS() }));
    const shortTokens = new TokenManager(short.deps, credentials, BASE);
    await shortTokens.lease('public');
    short.advance(1700);
    expect((await shortTokens.lease('public')).reused).toBe(true);
    short.advance(200);
    expect((await shortTokens.lease('public')).token.value).toBe('s-2');
  });

  it('makes exactly one request per scope for concurrent callers', async () => {
    // The service answers only once the test says so: every caller asks while the first requests are still out.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const stub = tokenStub(async (form) => {
      await answered;
      return json({ access_token: `tok-${form.get('scope')}`, expires_in: 7200 });
    });
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    const leasing = Promise.all([...Array(25)].flatMap(() => [tokens.lease('public'), tokens.lease('authentication')]));
    answer();
    const leases = await leasing;
    expect(stub.forms.map((form) => form.get('scope')).sort()).toEqual(['authentication', 'public']);
    expect(new Set(leases.map((lease) => lease.token.value))).toEqual(new Set(['tok-public', 'tok-authentication']));
  });

  it('maps token endpoint errors without echoing what was sent', async () => {
    const cases: Array<[Response, string]> = [
      [json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 401), 'INVALID_CREDENTIALS'],
      [json({ error: 'invalid_scope', error_description: 'The requested scope is invalid' }, 400), 'INSUFFICIENT_SCOPE'],
      [json({ error: 'invalid_request', error_description: `bad client_secret ${credentials.apiSecret}` }, 400), 'UNEXPECTED_RESPONSE'],
      [json({ ok: true }), 'UNEXPECTED_RESPONSE'],
      [new Response('<html>', { status: 200 }), 'UNEXPECTED_RESPONSE'],
      [new Response('oops', { status: 503, headers: { 'x-request-id': 'req-9' } }), 'SERVER_ERROR'],
    ];
    for (const [response, code] of cases) {
      const stub = tokenStub(() => response.clone());
      const error = await new TokenManager(stub.deps, credentials, BASE, NO_WAIT).lease('public').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code, status: response.status });
      const shown = JSON.stringify((error as { toInfo(): unknown }).toInfo());
      expect(shown).not.toContain(credentials.apiSecret);
      expect(shown).not.toContain(credentials.apiKey);
    }
  });

  it('asks again after a 503, a cut connection or a 429 (after its Retry-After), as every read does: one transient answer refuses nothing', async () => {
    const token = () => json({ access_token: 'tok-after', expires_in: 7200 });
    const answers: Array<() => Response | Promise<Response>> = [
      () => new Response('Service Unavailable', { status: 503 }),
      () => Promise.reject(new TypeError('fetch failed')),
      () => new Response('Retry later\n', { status: 429, headers: { 'retry-after': '1' } }),
      token,
    ];
    waits.length = 0;
    const stub = tokenStub((_form, n) => answers[n - 1]!());
    const { token: leased } = await new TokenManager(stub.deps, credentials, BASE, NO_WAIT).lease('authentication');
    expect(leased.value).toBe('tok-after');
    expect(stub.forms).toHaveLength(4);
    // The third wait honours the service's Retry-After of 1 s.
    expect(waits).toHaveLength(3);
    expect(waits[2]).toBeGreaterThanOrEqual(1000);
  });

  it('never asks again when the keys or the scope are refused (the same answer would come), and gives up after its retries', async () => {
    const refused = tokenStub(() => json({ error: 'invalid_client' }, 401));
    await expect(new TokenManager(refused.deps, credentials, BASE, NO_WAIT).lease('public')).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(refused.forms).toHaveLength(1);
    const failing = tokenStub(() => new Response('oops', { status: 502 }));
    await expect(new TokenManager(failing.deps, credentials, BASE, NO_WAIT).lease('public')).rejects.toMatchObject({ code: 'SERVER_ERROR', status: 502 });
    expect(failing.forms).toHaveLength(4);
  });

  it('says which scope the service refused, and the invalid_client advice', async () => {
    const refused = tokenStub(() => json({ error: 'invalid_client' }, 401));
    await expect(new TokenManager(refused.deps, credentials, BASE).lease('public')).rejects.toThrow(/Configuration > General/);
    const scope = tokenStub(() => json({ error: 'invalid_scope' }, 400));
    await expect(new TokenManager(scope.deps, credentials, BASE).lease('authentication')).rejects.toThrow(/“authentication” scope/);
  });
});

describe('sendAuthorized', () => {
  function apiStub(apiStatuses: number[]) {
    const seen: string[] = [];
    let tokenCount = 0;
    const deps: HttpDeps = {
      timeoutMs: 1000,
      now: () => Date.parse('2026-11-21T12:00:00Z'),
      secrets: () => [],
      fetch: async (url, init) => {
        if (String(url).endsWith('/oauth/token')) return json({ access_token: `tok-${++tokenCount}`, expires_in: 7200 });
        seen.push(new Headers(init?.headers).get('authorization') ?? '');
        const status = apiStatuses.shift() ?? 200;
        return new Response(status === 401 ? '' : '{}', { status, headers: status === 401 ? { 'www-authenticate': 'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token expired"' } : {} });
      },
    };
    return { deps, seen, tokenCount: () => tokenCount };
  }
  const request = { method: 'GET' as const, url: `${BASE}/api/v1/users`, purpose: msg('purpose.listUsers', { page: 1 }) };

  it('on a 401 with a cached token, gets a new token and repeats once', async () => {
    const stub = apiStub([200, 401, 200]);
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    await sendAuthorized(stub.deps, tokens, 'public', request);
    const response = await sendAuthorized(stub.deps, tokens, 'public', request);
    expect(response.status).toBe(200);
    expect(stub.seen).toEqual(['Bearer tok-1', 'Bearer tok-1', 'Bearer tok-2']);
  });

  it('a second 401 is UNAUTHORIZED with the service’s reason and no token', async () => {
    const stub = apiStub([200, 401, 401]);
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    await sendAuthorized(stub.deps, tokens, 'public', request);
    const error = await sendAuthorized(stub.deps, tokens, 'public', request).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(String((error as Error).message)).toContain('The access token expired');
    expect(String((error as Error).message)).not.toMatch(/tok-|Bearer/);
    expect(stub.tokenCount()).toBe(2);
  });

  it('a 401 on a brand-new token is not repeated', async () => {
    const stub = apiStub([401]);
    const tokens = new TokenManager(stub.deps, credentials, BASE);
    await expect(sendAuthorized(stub.deps, tokens, 'public', request)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(stub.seen).toHaveLength(1);
  });
});
