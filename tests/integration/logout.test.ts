import { describe, expect, it } from 'vitest';
import { NEGATIVE_CASES } from '../../shared/logout';
import { clientFor, inspectUser, login, recordingFetch, useSandbox } from './helpers';

describe('back-channel logout against the sandbox', () => {
  const sandbox = useSandbox({ users: 30 });

  it.each(['HS256', 'HS384', 'HS512'] as const)('a valid %s token ends every session of the user', async (algorithm) => {
    const uid = 'mixed /?#% ü+';
    await login(sandbox.current, uid);
    expect(await login(sandbox.current, uid)).toBeGreaterThanOrEqual(2);
    const result = await clientFor(sandbox.current).sendLogout(uid, { algorithm, includeEvents: true, expiresInSeconds: 120 });
    expect(result).toMatchObject({ uid, status: 200, ok: true, body: { success: true }, header: { alg: algorithm, typ: 'JWT' } });
    expect(result.claims).toMatchObject({ sub: uid, aud: 'sandbox-app', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
    expect(result.claims.exp).toBe(Number(result.claims.iat) + 120);
    expect(result.requestId).toEqual(result.headers['x-request-id']);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect((await inspectUser(sandbox.current, uid))?.sessionCount).toBe(0);
  });

  it('sends the form to /auth/logout/{application name} with no Authorization header', async () => {
    const recorder = recordingFetch();
    const result = await clientFor(sandbox.current, { fetch: recorder.fetch }).sendLogout('alice@example.org');
    expect(recorder.sent).toHaveLength(1);
    const [request] = recorder.sent;
    expect(new URL(request!.url).pathname).toBe('/auth/logout/sandbox-app');
    expect(request!.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(request!.headers.has('authorization')).toBe(false);
    expect(new URLSearchParams(request!.body).get('logout_token')).toBe(result.token);
  });

  it('an audience equal to the API key is accepted too', async () => {
    await login(sandbox.current, 'alice@example.org');
    const result = await clientFor(sandbox.current).sendLogout('alice@example.org', { audience: sandbox.current.credentials.apiKey });
    expect(result.ok).toBe(true);
    expect((await inspectUser(sandbox.current, 'alice@example.org'))?.sessionCount).toBe(0);
  });

  it.each(NEGATIVE_CASES)('the %s token is refused as a result (not an error), sessions kept', async (negativeCase) => {
    const uid = 'jean dupont';
    const sessions = await login(sandbox.current, uid);
    const client = clientFor(sandbox.current);
    const result = await client.sendLogout(uid, { negativeCase });
    expect(result.ok).toBe(false);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: 'invalid_request', error_description: expect.any(String) });
    expect((await inspectUser(sandbox.current, uid))?.sessionCount).toBe(sessions);
    // The explainer names a reason for every negative case.
    const verification = await client.verifyLogoutToken(result.token);
    expect(verification.valid).toBe(false);
    expect(verification.problems.length).toBeGreaterThan(0);
  });

  it('a tampered token is refused and explained as a signature mismatch', async () => {
    const client = clientFor(sandbox.current);
    const built = await client.buildLogoutToken('alice@example.org');
    const [header, , signature] = built.token.split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ ...built.claims, sub: 'bob+news@example.org' })).toString('base64url');
    const forged = `${header}.${forgedClaims}.${signature}`;
    const response = await fetch(`${sandbox.current.url}/auth/logout/sandbox-app`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ logout_token: forged }).toString(),
    });
    expect(response.status).toBe(400);
    const verification = await client.verifyLogoutToken(forged);
    expect(verification).toMatchObject({ valid: false, claims: { sub: 'bob+news@example.org' } });
    expect(verification.problems.join(' ')).toMatch(/different secret/);
  });

  it('the 422 variant and an empty success body are handled', async () => {
    sandbox.current.setVariants({ logoutErrorStatus: 422, logoutSuccessBody: 'empty' });
    const client = clientFor(sandbox.current);
    expect(await client.sendLogout('alice@example.org', { negativeCase: 'expired' })).toMatchObject({ status: 422, ok: false });
    expect(await client.sendLogout('alice@example.org')).toMatchObject({ status: 200, ok: true, body: '' });
  });

  it('an unknown application name gives a 404 result with ok false', async () => {
    const client = clientFor(sandbox.current, {
      profile: { id: 'sandbox', name: 'Sandbox', baseUrl: sandbox.current.url, applicationName: 'no such app/x' },
    });
    const result = await client.sendLogout('alice@example.org');
    expect(result).toMatchObject({ status: 404, ok: false });
  });

  it('a valid token for a uid with no user is still a 200', async () => {
    expect(await clientFor(sandbox.current).sendLogout('never-existed')).toMatchObject({ status: 200, ok: true });
  });
});
