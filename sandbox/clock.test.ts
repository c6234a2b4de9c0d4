import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './server';
import { api, inspectUid, login, requestToken, tokenFor } from './test-support';

const START = Date.parse('2026-11-21T12:00:00Z');
const UID = 'bob+news@example.org';

async function moveClock(sandbox: RunningSandbox, body: unknown): Promise<Response> {
  return fetch(`${sandbox.url}/sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function readClock(sandbox: RunningSandbox): Promise<{ now: string; nowMs: number; advancedSeconds: number }> {
  return (await (await fetch(`${sandbox.url}/sandbox/clock`)).json()) as { now: string; nowMs: number; advancedSeconds: number };
}

describe('the sandbox clock, injected', () => {
  let clock = START;
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 20, now: () => clock });
  });
  afterAll(() => sandbox.close());

  it('dates tokens, new users and their sessions by the injected clock', async () => {
    const token = (await (await requestToken(sandbox, 'public')).json()) as { created_at: number };
    expect(token.created_at).toBe(START / 1000);
    clock += 60_000;
    const created = await fetch(`${sandbox.url}/sandbox/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uid: 'new-user', sessions: 1 }),
    });
    expect(((await created.json()) as { user: { created_at: string } }).user.created_at).toBe('2026-11-21T12:01:00.000Z');
    expect(sandbox.now()).toBe(START + 60_000);
    expect(await readClock(sandbox)).toEqual({ now: '2026-11-21T12:01:00.000Z', nowMs: START + 60_000, advancedSeconds: 0 });
  });

  it('judges logout tokens’ exp and iat by its own clock, not the signer’s', async () => {
    const key = new TextEncoder().encode(sandbox.credentials.apiSecret);
    const logout = async (claims: Record<string, unknown>): Promise<Response> => {
      const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(key);
      return fetch(`${sandbox.url}/auth/logout/${sandbox.credentials.applicationName}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ logout_token: token }),
      });
    };
    const nowS = (): number => Math.floor(sandbox.now() / 1000);
    // START is in the past: by the wall clock these tokens would be long expired, or not from the future.
    const fiveMinutes = { sub: UID, iat: nowS(), exp: nowS() + 300 };
    await login(sandbox, UID);
    expect((await logout(fiveMinutes)).status).toBe(200);
    await login(sandbox, UID);
    sandbox.advanceClock(360);
    const expired = await logout(fiveMinutes);
    expect(expired.status).toBe(400);
    expect(((await expired.json()) as { error_description: string }).error_description).toMatch(/expired/);
    expect((await inspectUid(sandbox, UID)).body.sessionCount).toBeGreaterThan(0);

    // Issued an hour ahead of the sandbox: from the future, until the sandbox's clock gets there.
    const ahead = { sub: UID, iat: nowS() + 3600 };
    const early = await logout(ahead);
    expect(early.status).toBe(400);
    expect(((await early.json()) as { error_description: string }).error_description).toMatch(/future/);
    sandbox.advanceClock(3600);
    expect((await logout(ahead)).status).toBe(200);
    expect((await inspectUid(sandbox, UID)).body.sessionCount).toBe(0);
  });
});

describe('POST /sandbox/clock', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ users: 5, tokenTtlSeconds: 60 });
  });
  afterAll(() => sandbox.close());

  it('moves the clock forward for another process: a token expires without anyone waiting', async () => {
    const token = await tokenFor(sandbox, 'public');
    expect((await api(sandbox, 'GET', '/api/v1/users', token)).status).toBe(200);
    const before = await readClock(sandbox);

    const moved = await moveClock(sandbox, { advanceSeconds: 60 });
    expect(moved.status).toBe(200);
    const after = (await moved.json()) as { nowMs: number; advancedSeconds: number };
    expect(after.advancedSeconds).toBe(before.advancedSeconds + 60);
    expect(after.nowMs - before.nowMs).toBeGreaterThanOrEqual(60_000);

    const refused = await api(sandbox, 'GET', '/api/v1/users', token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('The access token expired');
    // A token issued after the jump is valid: expiry counts from the moved clock.
    expect((await api(sandbox, 'GET', '/api/v1/users', await tokenFor(sandbox, 'public'))).status).toBe(200);
  });

  it('refuses a backwards, unreadable or unknown change and leaves the clock as it was', async () => {
    const before = (await readClock(sandbox)).advancedSeconds;
    for (const bad of [{ advanceSeconds: -1 }, { advanceSeconds: '5' }, {}, { advanceSeconds: 5, rewind: true }, { advanceSeconds: 1e12 }]) {
      const response = await moveClock(sandbox, bad);
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^Invalid clock change: /);
    }
    expect(() => sandbox.advanceClock(-1)).toThrow(/moves forward/);
    expect((await readClock(sandbox)).advancedSeconds).toBe(before);
  });

  it('is listed among the inspection routes, and a reset does not turn the clock back', async () => {
    const routes = ((await (await fetch(`${sandbox.url}/sandbox/`)).json()) as { routes: string[] }).routes;
    expect(routes.some((route) => route.startsWith('POST /sandbox/clock'))).toBe(true);
    await moveClock(sandbox, { advanceSeconds: 5 });
    const advanced = (await readClock(sandbox)).advancedSeconds;
    await sandbox.reset();
    expect((await readClock(sandbox)).advancedSeconds).toBe(advanced);
  });
});
