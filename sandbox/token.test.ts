import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, SANDBOX_DEFAULTS, type RunningSandbox } from './server';
import { api, requestToken } from './test-support';

const INVALID_CLIENT = {
  error: 'invalid_client',
  error_description:
    'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
};

describe('POST /oauth/token', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20 });
  });
  afterAll(() => sandbox.close());

  it('grants a Doorkeeper-shaped token for form credentials', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await requestToken(sandbox, 'authentication');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['access_token', 'created_at', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 7200, scope: 'authentication' });
    expect(typeof body.access_token).toBe('string');
    expect((body.access_token as string).length).toBeGreaterThanOrEqual(32);
    expect(body.created_at).toBeGreaterThanOrEqual(before);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('gives a different token each time', async () => {
    const first = (await (await requestToken(sandbox, 'public')).json()) as { access_token: string };
    const second = (await (await requestToken(sandbox, 'public')).json()) as { access_token: string };
    expect(first.access_token).not.toBe(second.access_token);
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${sandbox.credentials.apiKey}:${sandbox.credentials.apiSecret}`).toString('base64');
    const response = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=public',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ scope: 'public' });
  });

  it('refuses HTTP Basic with a wrong secret even when the form carries the right one', async () => {
    const basic = Buffer.from(`${sandbox.credentials.apiKey}:wrong`).toString('base64');
    const response = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sandbox.credentials.apiKey, client_secret: sandbox.credentials.apiSecret }),
    });
    expect(response.status).toBe(401);
  });

  it('accepts a JSON body', async () => {
    const response = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: sandbox.credentials.apiKey, client_secret: sandbox.credentials.apiSecret, scope: 'authentication' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ scope: 'authentication', token_type: 'Bearer' });
  });

  it('treats a missing scope as public (Doorkeeper default scope)', async () => {
    const response = await requestToken(sandbox, undefined);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ scope: 'public' });
  });

  it('refuses a wrong API key or secret with 401 invalid_client', async () => {
    const wrong: Array<Record<string, string>> = [{ client_id: 'not-the-key' }, { client_secret: 'not-the-secret' }, { client_secret: '' }];
    for (const overrides of wrong) {
      const response = await requestToken(sandbox, 'public', overrides);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(INVALID_CLIENT);
    }
  });

  it('answers the documented 400 errors', async () => {
    const cases: Array<[Record<string, string>, string | undefined, string]> = [
      [{ grant_type: '' }, 'public', 'invalid_request'],
      [{ grant_type: 'password' }, 'public', 'unsupported_grant_type'],
      [{}, 'admin', 'invalid_scope'],
      [{}, 'public write', 'invalid_scope'],
    ];
    for (const [overrides, scope, error] of cases) {
      const response = await requestToken(sandbox, scope, overrides);
      expect(response.status, error).toBe(400);
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe(error);
      expect(body.error_description.length).toBeGreaterThan(10);
    }
  });

  it('never echoes the secret in an error', async () => {
    const response = await requestToken(sandbox, 'public', { client_id: 'nope' });
    expect(await response.text()).not.toContain(sandbox.credentials.apiSecret);
  });

  it('answers a malformed body with invalid_request and never quotes it back', async () => {
    const response = await fetch(`${sandbox.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"grant_type":"client_credentials","client_secret":"${sandbox.credentials.apiSecret}" oops`,
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ error: 'invalid_request' });
    expect(text).not.toContain(sandbox.credentials.apiSecret);
  });

  it('leaves out created_at in the tokenCreatedAt=false variant', async () => {
    sandbox.setVariants({ tokenCreatedAt: false });
    try {
      const body = (await (await requestToken(sandbox, 'public')).json()) as Record<string, unknown>;
      expect(body).not.toHaveProperty('created_at');
      expect(body.expires_in).toBe(7200);
    } finally {
      sandbox.setVariants({ tokenCreatedAt: true });
    }
  });

  it('counts token requests per scope and the failed ones', async () => {
    await fetch(`${sandbox.url}/sandbox/stats/reset`, { method: 'POST' });
    await requestToken(sandbox, 'authentication');
    await requestToken(sandbox, 'public');
    await requestToken(sandbox, 'public');
    await requestToken(sandbox, 'public', { client_secret: 'wrong' });
    expect(sandbox.stats().tokenRequests).toEqual({ authentication: 1, public: 3, failed: 1 });
  });
});

describe('token lifetime', () => {
  it('uses the documented defaults when started without options', () => {
    expect(SANDBOX_DEFAULTS).toMatchObject({ apiKey: 'sandbox-api-key', applicationName: 'sandbox-app', port: 4600, users: 500, seed: 1, tokenTtlSeconds: 7200 });
    expect(SANDBOX_DEFAULTS.apiSecret).toHaveLength(64);
  });

  it('refuses a token from the moment it expires, with the "expired" description', async () => {
    let clock = Date.parse('2026-11-21T12:00:00Z');
    const sandbox = await startSandbox({ users: 5, tokenTtlSeconds: 2, now: () => clock });
    try {
      const body = (await (await requestToken(sandbox, 'public')).json()) as { access_token: string; expires_in: number; created_at: number };
      expect(body.expires_in).toBe(2);
      expect(body.created_at).toBe(clock / 1000);
      clock += 1999;
      expect((await api(sandbox, 'GET', '/api/v1/users', body.access_token)).status).toBe(200);
      clock += 1;
      const response = await api(sandbox, 'GET', '/api/v1/users', body.access_token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token expired"',
      );
      expect(await response.text()).toBe('');
    } finally {
      await sandbox.close();
    }
  });
});
