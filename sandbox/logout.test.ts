import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { startSandbox, type RunningSandbox } from './server';
import { inspectUid, login } from './test-support';

const UID = 'bob+news@example.org';

describe('POST /auth/logout/{application_name}', () => {
  let sandbox: RunningSandbox;
  let key: Uint8Array;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20 });
    key = new TextEncoder().encode(sandbox.credentials.apiSecret);
  });
  beforeEach(async () => {
    await sandbox.reset();
    await login(sandbox, UID);
  });
  afterAll(() => sandbox.close());

  const now = (): number => Math.floor(Date.now() / 1000);

  function sign(claims: Record<string, unknown>, alg = 'HS256', secret: Uint8Array = key): Promise<string> {
    return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(secret);
  }

  function logout(token: string, application = sandbox.credentials.applicationName): Promise<Response> {
    return fetch(`${sandbox.url}/auth/logout/${encodeURIComponent(application)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: token }),
    });
  }

  async function sessions(uid = UID): Promise<number> {
    return (await inspectUid(sandbox, uid)).body.sessionCount as number;
  }

  it.each(['HS256', 'HS384', 'HS512'])('a valid %s token ends every session of the user', async (alg) => {
    await login(sandbox, UID);
    expect(await sessions()).toBeGreaterThanOrEqual(2);
    const response = await logout(await sign({ sub: UID, aud: sandbox.credentials.applicationName, iat: now(), jti: 'x' }, alg));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
    expect(await sessions()).toBe(0);
  });

  it('does not touch other users', async () => {
    await login(sandbox, 'alice@example.org');
    const before = await sessions('alice@example.org');
    await logout(await sign({ sub: UID, iat: now() }));
    expect(await sessions('alice@example.org')).toBe(before);
  });

  it('accepts aud as the API key, as an array, or absent', async () => {
    for (const aud of [sandbox.credentials.apiKey, ['other', sandbox.credentials.applicationName], undefined]) {
      await login(sandbox, UID);
      const claims: Record<string, unknown> = { sub: UID, iat: now() };
      if (aud !== undefined) claims.aud = aud;
      const response = await logout(await sign(claims));
      expect(response.status, JSON.stringify(aud)).toBe(200);
      expect(await sessions()).toBe(0);
    }
  });

  it('answers 200 {"success":true} when no user has that uid', async () => {
    const response = await logout(await sign({ sub: 'nobody-here', iat: now() }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true });
  });

  it('answers an empty 200 in the logoutSuccessBody=empty variant', async () => {
    sandbox.setVariants({ logoutSuccessBody: 'empty' });
    const response = await logout(await sign({ sub: UID, iat: now() }));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(await sessions()).toBe(0);
  });

  async function tampered(): Promise<string> {
    const token = await sign({ sub: 'someone-else', iat: now() });
    const [header, , signature] = token.split('.');
    const payload = Buffer.from(JSON.stringify({ sub: UID, iat: now() })).toString('base64url');
    return `${header}.${payload}.${signature}`;
  }

  const refusals: Array<[string, () => Promise<string>, RegExp]> = [
    ['a tampered payload', tampered, /signature/],
    ['a token signed with another secret', () => sign({ sub: UID, iat: now() }, 'HS256', new TextEncoder().encode('x'.repeat(64))), /signature/],
    ['alg none', async () => new UnsecuredJWT({ sub: UID, iat: now() }).encode(), /algorithm "none"/],
    ['an expired token', () => sign({ sub: UID, iat: now() - 600, exp: now() - 300 }), /expired/],
    ['a wrong audience', () => sign({ sub: UID, iat: now(), aud: 'another-app' }), /audience/],
    ['a wrong audience array', () => sign({ sub: UID, iat: now(), aud: ['a', 'b'] }), /audience/],
    ['no sub', () => sign({ iat: now(), aud: 'sandbox-app' }), /sub/],
    ['an empty sub', () => sign({ sub: '', iat: now() }), /sub/],
    ['iat in the future', () => sign({ sub: UID, iat: now() + 3600 }), /future/],
    ['not a JWT', async () => 'not-a-jwt', /not a valid JWT/],
    ['an empty token', async () => '', /missing/],
  ];

  it.each(refusals)('refuses %s with 400 invalid_request and a specific reason', async (_label, make, reason) => {
    const response = await logout(await make());
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('invalid_request');
    expect(body.error_description).toMatch(reason);
    expect(body.error_description).not.toContain(sandbox.credentials.apiSecret);
    expect(await sessions()).toBeGreaterThan(0);
  });

  it('accepts an iat slightly in the future (clock skew)', async () => {
    expect((await logout(await sign({ sub: UID, iat: now() + 30 }))).status).toBe(200);
  });

  it('refuses with 422 in the logoutErrorStatus=422 variant', async () => {
    sandbox.setVariants({ logoutErrorStatus: 422 });
    const response = await logout(await sign({ sub: UID, iat: now(), aud: 'another-app' }));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('answers 404 for an unknown application name', async () => {
    const response = await logout(await sign({ sub: UID, iat: now() }), 'another-app');
    expect(response.status).toBe(404);
    expect(await sessions()).toBeGreaterThan(0);
  });

  it('counts logout requests', async () => {
    const before = sandbox.stats().logoutRequests;
    await logout(await sign({ sub: UID, iat: now() }));
    await logout('garbage');
    expect(sandbox.stats().logoutRequests).toBe(before + 2);
  });
});
