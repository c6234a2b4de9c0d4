import { describe, expect, it } from 'vitest';
import { connectToService, createServiceClient } from './service-client';
import type { FetchLike } from '../types';

const profile = { id: 'p', name: 'City portal', baseUrl: 'https://debate.example/api/v1/', applicationName: 'city portal' };
const credentials = { apiKey: 'key-0123456789', apiSecret: 'secret-0123456789abcdef' };
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status, headers });

/** The client with its acts, as only the gate holds them. */
function connect(options: Parameters<typeof connectToService>[0]) {
  const { client, acts } = connectToService(options);
  return { ...client, anonymizeUser: (uid: string) => acts.erase('anonymize', uid), deleteUser: (uid: string) => acts.erase('delete', uid), sendLogout: acts.sendLogout };
}

/** Token endpoint always works; `api` answers everything else and sees each URL. */
function stub(api: (url: URL, init?: RequestInit) => Response | Promise<Response>) {
  const urls: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    urls.push(`${init?.method} ${String(input)}`);
    const url = new URL(String(input));
    if (url.pathname === '/oauth/token') return json({ access_token: 'tok-abcdef123', expires_in: 7200, created_at: Math.floor(Date.now() / 1000) });
    return api(url, init);
  };
  return { fetch, urls };
}

describe('createServiceClient', () => {
  it('normalises the base URL and refuses unusable profiles before any request', () => {
    const { fetch, urls } = stub(() => json([]));
    expect(createServiceClient({ profile, credentials, fetch }).profile.baseUrl).toBe('https://debate.example');
    expect(() => createServiceClient({ profile: { ...profile, baseUrl: 'http://debate.example' }, credentials, fetch })).toThrow(/https/);
    expect(() => createServiceClient({ profile, credentials: { apiKey: '', apiSecret: 'x' }, fetch })).toThrow(/API key or secret key/);
    expect(urls).toEqual([]);
  });

  it('sends erasures to the encoded uid path and logout to the encoded application name', async () => {
    const { fetch, urls } = stub((url) => (url.pathname.startsWith('/auth/logout/') ? json({ success: true }) : new Response(null, { status: 204 })));
    const client = connect({ profile, credentials, fetch });
    await client.anonymizeUser('a/b?c#d%e f+g');
    await client.deleteUser('ü');
    await client.sendLogout('x');
    expect(urls.filter((line) => !line.includes('/oauth/token'))).toEqual([
      'POST https://debate.example/api/v1/users/a%2Fb%3Fc%23d%25e%20f%2Bg/anonymize',
      'DELETE https://debate.example/api/v1/users/%C3%BC',
      'POST https://debate.example/auth/logout/city%20portal',
    ]);
  });

  it('anonymise is a JSON request with a JSON body (strict JSON servers accept it); delete has no body, so the connection is kept', async () => {
    const seen: Array<{ method?: string; type: string | null; body: unknown }> = [];
    const { fetch } = stub((_url, init) => {
      seen.push({ method: init?.method, type: new Headers(init?.headers).get('content-type'), body: init?.body });
      return json({ success: true });
    });
    const client = connect({ profile, credentials, fetch });
    await client.anonymizeUser('a');
    await client.deleteUser('b');
    expect(seen).toEqual([
      { method: 'POST', type: 'application/json', body: '{}' },
      { method: 'DELETE', type: null, body: undefined },
    ]);
  });

  it('a 200 that reports failure, or whose body cannot be read, is not a success: outcome unknown', async () => {
    const { fetch } = stub(() => json({ success: false, error: 'locked' }));
    await expect(connect({ profile, credentials, fetch }).deleteUser('u')).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown', status: 200 });
    const garbled = stub(() => new Response('<html>OK</html>', { status: 200 }));
    await expect(connect({ profile, credentials, fetch: garbled.fetch }).anonymizeUser('u')).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE', outcome: 'unknown', status: 200 });
  });

  it('a 2xx with an empty body or a JSON body is done', async () => {
    for (const answer of [() => new Response(null, { status: 204 }), () => new Response('', { status: 200 }), () => json({ success: true })]) {
      const { fetch } = stub(answer);
      await expect(connect({ profile, credentials, fetch }).anonymizeUser('u')).resolves.toMatchObject({ outcome: 'done', action: 'anonymize', uid: 'u' });
    }
  });

  it('each failure of an erasure carries its outcome', async () => {
    const cases: Array<[() => Response | Promise<Response>, string, string]> = [
      [() => new Response('', { status: 404 }), 'NOT_FOUND', 'refused'],
      [() => json({ error: 'bad' }, 422), 'UNEXPECTED_RESPONSE', 'refused'],
      [() => new Response('', { status: 429, headers: { 'retry-after': '3' } }), 'RATE_LIMITED', 'refused'],
      [() => new Response('', { status: 302, headers: { location: 'https://elsewhere.example/x' } }), 'UNEXPECTED_RESPONSE', 'refused'],
      [() => new Response('', { status: 503 }), 'SERVER_ERROR', 'unknown'],
      [() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } })), 'NETWORK', 'unknown'],
      [() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })), 'NETWORK', 'not-sent'],
    ];
    for (const [answer, code, outcome] of cases) {
      const { fetch } = stub(answer);
      await expect(connect({ profile, credentials, fetch }).deleteUser('u'), code).rejects.toMatchObject({ code, outcome });
    }
  });

  it('an erasure whose token cannot be had was never sent', async () => {
    const fetch: FetchLike = async () => new Response('', { status: 503 });
    await expect(connect({ profile, credentials, fetch, maxListRetries: 0 }).anonymizeUser('u')).rejects.toMatchObject({ outcome: 'not-sent' });
  });

  it('an erasure answered 400/422 is UNEXPECTED_RESPONSE quoting the service; 404 with an empty body is NOT_FOUND', async () => {
    const { fetch } = stub((url) => (url.pathname.includes('gone') ? new Response('', { status: 404 }) : json({ error: 'uid is reserved' }, 422)));
    const client = connect({ profile, credentials, fetch });
    await expect(client.anonymizeUser('u')).rejects.toThrow(/uid is reserved/);
    await expect(client.deleteUser('gone')).rejects.toThrow(/No user with uid “gone” exists in City portal/);
  });

  it('the api_key fallback refused with 401 is INVALID_CREDENTIALS, and the key stays out of the message', async () => {
    const { fetch } = stub((url) => (url.searchParams.has('api_key') ? new Response('', { status: 401 }) : new Response('', { status: 403 })));
    const error = await createServiceClient({ profile, credentials, fetch }).listUsers().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    expect(JSON.stringify((error as { toInfo(): unknown }).toInfo())).not.toContain(credentials.apiKey);
  });

  it('an empty or HTML list answer is UNEXPECTED_RESPONSE, retried only for 5xx', async () => {
    let calls = 0;
    const { fetch } = stub(() => {
      calls += 1;
      return new Response('<html>maintenance</html>', { status: 200 });
    });
    await expect(createServiceClient({ profile, credentials, fetch }).listUsers()).rejects.toMatchObject({ code: 'UNEXPECTED_RESPONSE' });
    expect(calls).toBe(1);
  });

  it('sendLogout returns refusals and non-JSON bodies as results', async () => {
    const { fetch } = stub(() => new Response('Bad token', { status: 400, headers: { 'x-request-id': 'r-7' } }));
    const result = await connect({ profile, credentials, fetch }).sendLogout('u', { negativeCase: 'alg-none' });
    expect(result).toMatchObject({ status: 400, ok: false, outcome: 'refused', errorCode: 'LOGOUT_REJECTED', body: 'Bad token', requestId: 'r-7', uid: 'u', header: { alg: 'none' } });
    expect(JSON.stringify(result)).not.toContain(credentials.apiSecret);
  });
});
